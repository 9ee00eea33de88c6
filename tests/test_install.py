"""The install files a fresh machine reads: every pin is a plain ``name==version`` that a package index
can serve, so nothing depends on a file that exists on one developer's machine."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*==[A-Za-z0-9][A-Za-z0-9_.+!-]*$")


def _pins(text: str) -> list[tuple[int, str]]:
    lines = enumerate(text.splitlines(), start=1)
    return [(n, line.strip()) for n, line in lines if line.strip() and not line.lstrip().startswith("#")]


def bad_pins(text: str) -> list[str]:
    """The lines of a constraints file that are not ``name==version`` (a URL, a path, a range, a name)."""
    return [f"line {n}: {line}" for n, line in _pins(text) if not PIN.match(line)]


def test_constraints_hold_only_name_equals_version_lines() -> None:
    assert bad_pins((ROOT / "constraints.txt").read_text()) == []


def test_a_wheel_path_a_url_a_range_or_a_bare_name_is_caught() -> None:
    text = "numpy==2.4.6\nhighspy @ file:///tmp/hs/highspy.whl\nscipy>=1.1\nfastapi\n# a comment\n"
    assert bad_pins(text) == [
        "line 2: highspy @ file:///tmp/hs/highspy.whl",
        "line 3: scipy>=1.1",
        "line 4: fastapi",
    ]


def test_every_runtime_dependency_is_pinned() -> None:
    pins = _pins((ROOT / "constraints.txt").read_text())
    names = {line.split("==")[0].lower().replace("_", "-") for _, line in pins}
    pyproject = (ROOT / "pyproject.toml").read_text()
    block = pyproject.split("dependencies = [", 1)[1].split("]", 1)[0]
    wanted = {re.split(r"[\[<>=]", d.strip().strip('",'))[0].lower() for d in block.split("\n") if d.strip()}
    assert wanted - names == set()


def _path_without(tmp_path: Path, uid: int) -> str:
    """A PATH holding the few tools scripts/system-packages uses, with ``id -u`` answering ``uid`` and no
    chromium, PostgreSQL or apt-get."""
    import shutil

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("ls", "mktemp", "cat"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    (bin_dir / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    (bin_dir / "id").chmod(0o755)
    return str(bin_dir)


def test_a_plain_user_is_told_which_system_packages_to_install_and_how(tmp_path: Path) -> None:
    import subprocess

    env = {"PATH": _path_without(tmp_path, 1000)}
    script = ROOT / "scripts" / "system-packages"
    done = subprocess.run(["/bin/sh", str(script), "chromium"], env=env, capture_output=True, text=True)
    assert done.returncode == 1
    assert "chromium" in done.stderr and "sudo apt-get install -y chromium" in done.stderr
    assert done.stdout == ""


def test_installed_system_packages_pass_silently(tmp_path: Path) -> None:
    import subprocess

    bin_dir = _path_without(tmp_path, 1000)
    (Path(bin_dir) / "chromium").write_text("#!/bin/sh\n")
    (Path(bin_dir) / "chromium").chmod(0o755)
    script = ROOT / "scripts" / "system-packages"
    done = subprocess.run(["/bin/sh", str(script), "chromium"], env={"PATH": bin_dir}, capture_output=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")

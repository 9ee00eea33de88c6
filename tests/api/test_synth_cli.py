"""``sprawlscan synth`` writes reproducible photos with their truth files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from scoring.city_text import parse_city


def _run(out: Path, *extra: str) -> int:
    return main(["synth", "--count", "2", "--seed", "40", "--out", str(out), "--long-side", "480", *extra])


def test_synth_writes_photos_and_truth_byte_for_byte(tmp_path: Path) -> None:
    assert _run(tmp_path / "a") == 0
    assert _run(tmp_path / "b") == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["photo-0000.jpg", "photo-0000.json", "photo-0001.jpg", "photo-0001.json"]
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    truth = json.loads((tmp_path / "a" / "photo-0001.json").read_text())
    assert truth["seed"] == 41 and max(truth["width"], truth["height"]) == 480
    assert (tmp_path / "a" / "photo-0001.jpg").read_bytes()[:3] == b"\xff\xd8\xff"
    city = parse_city(truth["city"])
    assert len(city.cards) == 3 and sum(1 for _ in city.blocks()) >= 20


def test_synth_set_fixes_a_condition(tmp_path: Path) -> None:
    assert _run(tmp_path, "--set", "table=wood", "--set", "tilt=30", "--set", "wb=[1.1, 1, 0.9]") == 0
    for k in range(2):
        cond = json.loads((tmp_path / f"photo-000{k}.json").read_text())["conditions"]
        assert cond["table"] == "wood" and cond["tilt"] == 30.0 and cond["wb"] == [1.1, 1.0, 0.9]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--set", "tilt=steep"], "tilt must be a number"),
        (["--set", "sky=blue"], "unknown condition"),
        (["--set", "notakeyvalue"], "KEY=VALUE"),
    ],
)
def test_synth_bad_options_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert _run(tmp_path, *extra) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "Traceback" not in err[0]


def test_synth_bad_count_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["synth", "--count", "0", "--out", str(tmp_path)])
    assert exc.value.code == 2
    assert "--count: count: expected a whole number from 1 to" in capsys.readouterr().err


def test_synth_heic_writes_iphone_style_files(tmp_path: Path) -> None:
    assert main(["synth", "--count", "1", "--out", str(tmp_path), "--long-side", "200", "--heic"]) == 0
    data = (tmp_path / "photo-0000.heic").read_bytes()
    assert data[4:12] == b"ftypheic"
    import pillow_heif

    heif = pillow_heif.open_heif(data)
    assert max(heif.size) == 200
    assert not (tmp_path / "photo-0000.jpg").exists()

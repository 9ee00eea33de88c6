"""``sprawlscan games`` and ``sprawlscan stats`` on a database of their own (SQLite file and PostgreSQL).

The games are put there through the CLI's own import; the printed numbers are compared with the engine's
scores of the same cities.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from api.core import owner_of_token
from api.storage import DeviceStore, open_database
from tests.conftest import CITY, TOWN, engine_json

TOKEN = "a" * 20 + "B" * 20
OTHER = "c" * 40


def _import_file(tmp_path: Path) -> Path:
    doc = {
        "format": "sprawlscan-games",
        "version": 1,
        "games": [
            {"city": CITY, "cards": [8, 7, 17], "label": "first", "played_at": "2026-11-01T10:00:00Z"},
            {"city": CITY, "cards": [1, 2, 3], "played_at": "2026-11-02T10:00:00Z"},
            {"game": "wagons", "city": TOWN, "options": {"goals": ["cool-water"]}, "played_at": "2026-11-03"},
        ],
    }
    path = tmp_path / "games.json"
    path.write_text(json.dumps(doc))
    return path


def test_import_list_export_and_stats(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--database", db_url]
    assert main(["games", *db, "--import", str(_import_file(tmp_path)), "--device", TOKEN]) == 0
    assert "imported 3 games" in capsys.readouterr().out
    assert main(["games", *db]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:3] == ["played", "(UTC)", "game"] and lines[-1] == "3 of 3 games"
    assert lines[1].startswith("2026-11-03 00:00  wagons") and "first" in lines[3]
    first = engine_json(CITY, [8, 7, 17])
    assert f" {first['total']} " in lines[3] and " lost " in lines[3]

    assert main(["games", *db, "--device", OTHER]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "0 of 0 games"

    out = tmp_path / "export.json"
    assert main(["games", *db, "--device", TOKEN, "--export", str(out)]) == 0
    exported = json.loads(out.read_text())["games"]
    assert [g["label"] for g in exported] == ["first", "", ""]
    assert exported[0]["breakdown"] == first

    assert main(["stats", *db, "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    sprawl = next(s for s in stats["sections"] if s["game"] == "sprawlopolis")
    second = engine_json(CITY, [1, 2, 3])["total"]
    assert sprawl["overall"]["games"] == 2 and sprawl["overall"]["best"] == max(first["total"], second)
    assert main(["stats", *db, "--device", TOKEN]) == 0
    text = capsys.readouterr().out
    assert "Sprawlopolis" in text and "Circle the Wagons" in text and "Central Perks" in text
    all_row = next(line for line in text.splitlines() if line.startswith("all "))
    assert all_row.split()[1:3] == ["2", "0"]


def test_cli_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--database", str(tmp_path / "x.db")]
    assert main(["games", *db, "--import", str(_import_file(tmp_path))]) == 2
    assert "--import needs --device" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sprawlscan-games",\n "games": [}')
    assert main(["games", *db, "--import", str(bad), "--device", TOKEN]) == 2
    assert "bad.json: line 2, column 12" in capsys.readouterr().err
    assert main(["games", *db, "--device", "short"]) == 2
    assert "device token" in capsys.readouterr().err
    assert main(["games", *db, "--import", str(tmp_path / "missing.json"), "--device", TOKEN]) == 2
    assert "missing.json" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["games", *db, "--limit", "0"])
    assert exc.value.code == 2


def test_a_token_the_operator_imports_games_with_is_heard_by_the_service(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = DeviceStore(open_database(db_url), 20, 86_400.0)
    command = ["games", "--database", db_url, "--import", str(_import_file(tmp_path)), "--device", TOKEN]
    assert not store.issued(owner_of_token(TOKEN))
    assert main(command) == 0
    assert "imported 3 games" in capsys.readouterr().out
    assert store.issued(owner_of_token(TOKEN)) and not store.issued(owner_of_token(OTHER))
    assert main(command) == 0
    assert store.count() == 1  # entered once, however many imports

"""Games are known through the registry only (issue 36): no code of the interfaces (``api/``) names a game,
and the registry's face behaves as documented."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

from games import GameOptionError, game_named, game_names, load_any_deck, registered
from vision.deck import DeckFileError
from vision.deck.archive import write_archive

ROOT = Path(__file__).resolve().parents[1]
# A migration records what the schema and its data were at the time: its game names are history.
HISTORY = ROOT / "api" / "storage" / "migrations"


def _names() -> set[str]:
    return {n for g in registered() for n in (g.name, *g.aliases)}


def _code_strings(path: Path) -> list[tuple[int, str]]:
    """Every string constant in ``path``'s code, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_code_of_the_interfaces_names_a_game() -> None:
    names = _names()
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in sorted((ROOT / "api").rglob("*.py"))
        if HISTORY not in path.parents
        for line, text in _code_strings(path)
        if text.strip().lower() in names
    ]
    assert found == []


def _page_mentions(folder: Path, words: set[str]) -> list[str]:
    """Each line of the page's files in ``folder`` that says one of ``words`` (whole words, any case)."""
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in sorted(words)) + r")\b", re.IGNORECASE)
    return [
        f"{path.relative_to(folder)}:{n}: {line.strip()[:80]}"
        for path in sorted(folder.rglob("*"))
        if path.suffix in {".js", ".html", ".css", ".webmanifest"}
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]


def test_no_file_of_the_page_names_a_game() -> None:
    """The page learns the games from ``/api/v1/meta``; each game's own page part lives in its package."""
    words = _names() | {g.title for g in registered()}
    assert _page_mentions(ROOT / "api" / "web" / "static", words) == []


def test_the_page_check_finds_a_game_named_in_a_comment_or_a_string(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text('const x = 1;\n// read as a Sprawlopolis city\nconst y = "wagons";\n')
    (tmp_path / "b.js").write_text("const sprawlscan = 'sprawlopolisque';\n")
    assert _page_mentions(tmp_path, {"sprawlopolis", "wagons"}) == [
        "a.js:2: // read as a Sprawlopolis city",
        'a.js:3: const y = "wagons";',
    ]


def test_the_check_finds_a_game_name_in_code_but_not_in_a_docstring(tmp_path: Path) -> None:
    path = tmp_path / "x.py"
    path.write_text(f'"""About {game_names()[0]}."""\n\nGAME = "{game_names()[0]}"\n', encoding="utf-8")
    assert [text for _, text in _code_strings(path)] == [game_names()[0]]


def test_a_game_is_found_by_its_name_or_an_alias_in_any_case() -> None:
    for game in registered():
        for name in (game.name, *game.aliases):
            assert game_named(name.upper()) is game


def test_an_unknown_game_is_refused_naming_the_games_there_are() -> None:
    with pytest.raises(GameOptionError) as refused:
        game_named("chess")
    assert all(name in str(refused.value) for name in game_names())


def test_every_choice_a_game_offers_is_its_own_key_once() -> None:
    for game in registered():
        keys = [o.key for o in game.options]
        assert len(keys) == len(set(keys)) and all(game.owns(k) for k in keys)


def test_a_deck_file_of_a_game_no_one_registered_is_refused_naming_it() -> None:
    data = write_archive(
        {"game": "chess", "version": 1}, np.zeros((1, 4)), (1.0, 0.0), {}, (), np.zeros((0, 3))
    )
    with pytest.raises(DeckFileError, match=r"k.deck: a taught deck of a game this sprawlscan does not know"):
        load_any_deck(data, "k.deck")

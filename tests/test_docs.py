"""The project's own documentation (README.md, docs/) says what the code does: its examples parse and
score, it names every ruling the engine prints, and nothing points outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

from api.web import create_app
from scoring.city_text import parse_city
from scoring.tally import parse_tally
from scoring.wagons import parse_town
from scoring.wagons.goals import RULINGS

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _blocks(path: Path, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", path.read_text(), flags=re.S)


def test_city_format_examples_parse() -> None:
    city, town = _blocks(DOCS / "city-format.md", "text")
    assert parse_city(city).cards == (5, 9, 11)
    assert parse_town(town).header("goals") == "cool-water badlands the-clearing"


def test_tally_format_examples_are_the_shipped_tally_and_parse() -> None:
    (text,) = _blocks(DOCS / "tally-format.md", "text")
    shipped = (ROOT / "samples" / "example.tally").read_text()

    def items(t: str) -> list[str]:
        return [line for line in t.splitlines() if line and not line.startswith("#")]

    assert items(text) == items(shipped)
    readme = _blocks(ROOT / "README.md", "text")[0]
    assert items(readme) == items(shipped)
    (examples,) = _blocks(DOCS / "tally-format.md", "json")
    for line in examples.splitlines():
        assert any(t.label == "parks" and t.points == 3 for t in parse_tally(line))


def test_rulings_doc_names_every_ruling_the_engine_prints() -> None:
    import scoring.cards
    import scoring.expansions.beaches
    import scoring.expansions.interstate

    doc = (DOCS / "rulings.md").read_text().lower()
    texts = [
        value
        for module in (scoring.cards, scoring.expansions.beaches, scoring.expansions.interstate)
        for name, value in vars(module).items()
        if name.startswith("RULING_")
    ]
    assert len(texts) >= 8
    for text in texts:
        topic = re.match(r"(?:Ruling \()?([^):]+)", text)
        assert topic and topic[1].split(",")[0].lower() in doc, text
    for text in RULINGS.values():
        assert text.split(":")[0].lower() in doc, text


def test_nothing_points_outside_the_repository() -> None:
    for path in [ROOT / "README.md", *DOCS.glob("*.md")]:
        text = path.read_text()
        for target in re.findall(r"\]\(([^)#]+)\)", text):
            if "://" not in target:
                assert (path.parent / target).exists(), f"{path.name} links to missing {target}"
        assert "shared/rules" not in text, path.name
    schema = create_app().openapi()["components"]["schemas"]
    described = [
        s["properties"]["city"].get("description", "")
        for s in schema.values()
        if "city" in s.get("properties", {}) and s["properties"]["city"].get("description")
    ]
    assert described and all("docs/city-format.md" in d for d in described)

"""Links into a heading (``docs/teach-deck.md#a-circle-the-wagons-deck``) land on it: every ``#anchor`` of a
link in the README and the docs names a heading of its target as GitHub spells heading anchors."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def heading_anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens.

    >>> heading_anchor("A Circle the Wagons deck (`vision/towns/deck/`)")
    'a-circle-the-wagons-deck-visiontownsdeck'
    """
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of ``page``'s headings (outside code blocks)."""
    out: set[str] = set()
    fenced = False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"#{1,6} (.+)", line)):
            out.add(heading_anchor(m[1]))
    return out


def test_every_link_into_a_heading_finds_the_heading() -> None:
    links = [
        (page, target, anchor)
        for page in PAGES
        for target, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", page.read_text())
        if "://" not in target
    ]
    assert links, "no link into a heading found: the pattern above no longer matches the docs"
    for page, target, anchor in links:
        into = (page.parent / target).resolve() if target else page
        assert into.exists(), f"{page.name} links to missing {target}"
        assert anchor in anchors(into), f"{page.name} links to #{anchor}, which no heading of {target} makes"


def test_the_readme_points_at_the_circle_the_wagons_deck_section() -> None:
    assert "a-circle-the-wagons-deck" in anchors(ROOT / "docs" / "teach-deck.md")

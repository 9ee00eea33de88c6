"""Any print of Sprawlopolis, for ``bench_print``: random city editions taught from one deck photo each,
their cities read with the deck and without it.

Per edition (``models.synth.city_edition.random_city_edition``, seeds from :data:`CITY_EDITION_SEED_BASE`):
the deck photo (``models.synth.deck.render_deck``) teaches the scanner through ``sprawlscan teach``'s path
(the game told from the photo); its cards are compared with the photo's truth (the grid either way round).
A teaching that leaves the zones' cycle open asks the player to name one card: the bench answers as the
player would (the card at row 1 card 1, ``deck fix``) and counts the cards right after that tap too. A city
photo of the same edition (no expansion marks) is then read with the deck and without it. Line per edition
and a closing line: ``city editions: taught K/E (asked A, K2/E after one tap), blocks M/N, cities exact
X/E, silent S, untaught needs_deck U/E (exact Q)``, then the same blocks and cities over the photos that
show the whole city, and how many run off the photo (a card partly outside it: the right answer is a
retake, and no reading can be whole) with how many of those were retaken.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games import GameRequest, scan_photo, teach_photos
from models.synth.city_edition import random_city_edition
from models.synth.deck import render_deck
from models.synth.scene import render_photo
from scoring.city_text import parse_city
from scoring.errors import InputError
from tests.evaluate import compare_cities
from vision.city.result import ScanResult
from vision.deck import DeckError
from vision.deck.corrections import parse_correction, relabel

__all__ = ["CITY_EDITION_SEED_BASE", "city_editions"]

CITY_EDITION_SEED_BASE = 37_000


@dataclass
class CityRead:
    """One city read against its truth: blocks right of cells, exact, wrong cells no doubt names, and
    the answer's kind (scored, retake, needs_deck or a refusal's code)."""

    right: int
    cells: int
    exact: bool
    silent: int
    kind: str


def read_city(jpeg: bytes, truth_text: str, deck: object) -> CityRead:
    truth = parse_city(truth_text)
    try:
        result = scan_photo(jpeg, GameRequest(), decks=[deck] if deck is not None else []).scan
    except InputError as exc:
        score = compare_cities(truth, None)
        return CityRead(0, score.cells, False, 0, exc.code)
    if not isinstance(result, ScanResult):
        return CityRead(0, compare_cities(truth, None).cells, False, 0, "read as a town")
    score = compare_cities(truth, result.city)
    doubted = {score.to_truth(result.city, d.row, d.col) for d in result.doubts}
    silent = sum(rc not in doubted for rc, _, _ in score.wrong)
    kind = "needs_deck" if getattr(result, "needs_deck", False) else "retake" if result.retake else "scored"
    return CityRead(score.right, score.cells, score.exact, silent, kind)


def cards_right(seen: list, truth: dict) -> int:
    """Cards given the true number and turn at their grid place, the grid read either way round."""
    want = {(c["row"], c["col"]): (c["card"], c["rotated"]) for c in truth["cards"]}
    rows, cols = max(r for r, _ in want) + 1, max(c for _, c in want) + 1
    best = 0
    for turned in (False, True):
        right = 0
        for c in seen:
            r, k = (rows - 1 - c.row, cols - 1 - c.col) if turned else (c.row, c.col)
            right += want.get((r, k)) == (c.card, c.rotated != turned)
        best = max(best, right)
    return best


def _tap(deck: object, seen: list, truth: dict) -> object:
    """The player's one correction: the true card at the first card's place (row 1 card 1)."""
    first = seen[0]
    want = {(c["row"], c["col"]): (c["card"], c["rotated"]) for c in truth["cards"]}
    card, rotated = want[(first.row, first.col)]
    return relabel(deck, [parse_correction(f"{first.row + 1},{first.col + 1}={card}{'r' * rotated}")])


def runs_off(truth: object) -> bool:
    """Whether a card of the city lies partly outside the rendered photo: no reading can be whole, and the
    right answer is a retake (the scan asks to step back), not blocks."""
    w, h = truth.width, truth.height  # type: ignore[attr-defined]
    corners = np.array([c.corners for c in truth.cards], float).reshape(-1, 2)  # type: ignore[attr-defined]
    return bool(((corners < 0) | (corners >= (w, h))).any())


def _teach(jpeg: bytes, truth: dict) -> tuple[object | None, int, bool, int, str]:
    """The deck taught (after the player's tap when asked), cards right before and after, and why not."""
    try:
        teaching = teach_photos([jpeg], names=["deck photo"])
    except DeckError as exc:
        return None, 0, False, 0, str(exc)[:120]
    right = cards_right(teaching.cards, truth)
    asked = getattr(teaching, "ask", None) is not None
    if not asked:
        return teaching.deck, right, False, right, ""
    from vision.deck.seen import card_from_meta

    deck = _tap(teaching.deck, teaching.cards, truth)
    return deck, right, True, cards_right([card_from_meta(m) for m in deck.seen], truth), ""


def city_editions(count: int, jpeg: object, only: tuple[int, ...] = ()) -> None:
    """The editions' lines and the closing line; ``only``: the seeds to run of the ``count`` (for looking at
    a few, not for figures; all when empty)."""
    tally = {"taught": 0, "asked": 0, "tapped": 0, "right": 0, "cells": 0, "exact": 0, "silent": 0}
    whole = {"photos": 0, "right": 0, "cells": 0, "exact": 0}  # the photos that show the whole city
    off_photo = off_retaken = 0
    untaught_refused = untaught_exact = 0
    seeds = [CITY_EDITION_SEED_BASE + i for i in range(count)]
    seeds = [s for s in seeds if not only or s in only]
    count = len(seeds)
    for seed in seeds:
        edition = random_city_edition(np.random.default_rng(seed))
        deck_rgb, deck_truth = render_deck(seed, ppm=3.0, edition=edition)
        deck, right, asked, after, why = _teach(jpeg(deck_rgb), deck_truth)  # type: ignore[operator]
        photo = render_photo(seed, edition=edition, wrecktar=False, poi=False, construction=0)
        untaught = read_city(photo.jpeg, photo.truth.city, None)
        got = read_city(photo.jpeg, photo.truth.city, deck) if deck is not None else None
        tally["taught"] += right == 18
        tally["asked"] += asked
        tally["tapped"] += after == 18
        if got is not None:
            tally["right"] += got.right
            tally["exact"] += got.exact and got.kind == "scored"
            tally["silent"] += got.silent if got.kind == "scored" else 0
        # The taught read's blocks over its own cells (the truth's and the read's), the truth's when the
        # deck was not taught: the untaught read's stray blocks are no part of it.
        cells = got.cells if got is not None else compare_cities(parse_city(photo.truth.city), None).cells
        tally["cells"] += cells
        off = runs_off(photo.truth)
        off_photo += off
        off_retaken += off and got is not None and got.kind == "retake"
        if not off:
            whole["photos"] += 1
            whole["cells"] += cells
            if got is not None:
                whole["right"] += got.right
                whole["exact"] += got.exact and got.kind == "scored"
        untaught_refused += untaught.kind == "needs_deck"
        untaught_exact += untaught.exact and untaught.kind == "scored"
        style = f"{'textured' if edition.textured else 'flat'}{', outlined' if edition.outline_mm else ''}"
        read = "not read" if got is None else f"{got.right}/{got.cells} {got.kind}, silent {got.silent}"
        tapped = f" asked, after one tap {after}/18" if asked else ""
        refused = f" refused: {why}" if why else ""
        style += ", runs off the photo" if off else ""
        print(f"  city edition {seed} ({style}): cards {right}/18{tapped}{refused}; city {read}; "
              f"untaught {untaught.kind} {untaught.right}/{untaught.cells}", flush=True)  # fmt: skip
    share = 100 * tally["right"] / max(1, tally["cells"])
    taught = f"{tally['taught']}/{count} (asked {tally['asked']}, {tally['tapped']}/{count} after one tap)"
    print(f"city editions: taught {taught}, blocks {tally['right']}/{tally['cells']} ({share:.1f} %), cities "
          f"exact {tally['exact']}/{count}, silent {tally['silent']}, untaught needs_deck "
          f"{untaught_refused}/{count} (exact {untaught_exact})", flush=True)  # fmt: skip
    whole_share = 100 * whole["right"] / max(1, whole["cells"])
    print(f"  of them showing the whole city ({whole['photos']}): blocks {whole['right']}/{whole['cells']} "
          f"({whole_share:.1f} %), exact {whole['exact']}/{whole['photos']}; running off the photo "
          f"{off_photo}, retaken {off_retaken}/{off_photo}", flush=True)  # fmt: skip

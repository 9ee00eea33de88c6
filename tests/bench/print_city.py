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
retake, and no reading can be whole) with how many of those were retaken. A last line measures the
geometry apart from the reading: on how many taught reads the lattice's pitch came within 2 % of the
cards' own (their true centres mapped into the top-down view), and on how many it was more than 5 % off.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from games import GameRequest, scan_photo, teach_photos
from models.synth.city_edition import random_city_edition
from models.synth.deck import render_deck
from models.synth.scene import render_photo
from models.synth.truth import PhotoTruth
from scoring.city_text import parse_city
from scoring.errors import InputError
from tests.bench.perturbed import changes_a_line
from tests.evaluate import compare_cities
from vision.city.result import ScanResult
from vision.deck import DeckError
from vision.deck.corrections import parse_correction, relabel
from vision.lattice import project_points

__all__ = ["CITY_EDITION_SEED_BASE", "city_editions", "read_edition"]

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
    # Wrong cells no doubt names that change no line of the true city's breakdown (counted apart, as
    # bench_real counts them: not the player's to check).
    harmless: int = 0
    # How far the lattice's pitch is from the cards' own in the top-down view (the worse axis, a share),
    # None when no lattice was fitted or no deck was taught: the geometry measured apart from the reading.
    pitch_off: float | None = None


def pitch_off(
    result: ScanResult, cells: tuple[tuple[int, int, float, float, str], ...], width: int
) -> float | None:
    """The worse axis's |cards' pitch / lattice pitch - 1| in ``result``'s top-down view: the true cell
    centres (``cells``, in a photo ``width`` px wide) mapped into the view, fitted by an affine grid."""
    geometry = result.geometry
    if geometry is None:
        return None
    scale = geometry.photo.shape[1] / width
    centres = project_points(
        geometry.to_rectified, np.array([[x * scale, y * scale] for _, _, x, y, _ in cells])
    )
    grid = np.c_[np.ones(len(cells)), np.array([[r, c] for r, c, _, _, _ in cells], float)]
    worst = 0.0
    for axis, pitch in ((0, geometry.lattice.pitch_x), (1, geometry.lattice.pitch_y)):
        per_row, per_col = np.linalg.lstsq(grid, centres[:, axis], rcond=None)[0][1:]
        worst = max(worst, abs(max(abs(per_row), abs(per_col)) / pitch - 1))
    return float(worst)


def read_city(jpeg: bytes, photo_truth: PhotoTruth, deck: object) -> CityRead:
    truth = parse_city(photo_truth.city)
    try:
        result = scan_photo(jpeg, GameRequest(), decks=[deck] if deck is not None else []).scan
    except InputError as exc:
        score = compare_cities(truth, None)
        return CityRead(0, score.cells, False, 0, exc.code)
    if not isinstance(result, ScanResult):
        return CityRead(0, compare_cities(truth, None).cells, False, 0, "read as a town")
    score = compare_cities(truth, result.city)
    doubted = {score.to_truth(result.city, d.row, d.col) for d in result.doubts}
    unnamed = [(rc, got) for rc, _, got in score.wrong if rc not in doubted]
    silent = sum(changes_a_line(truth, rc, got) for rc, got in unnamed)
    kind = "needs_deck" if getattr(result, "needs_deck", False) else "retake" if result.retake else "scored"
    # Only the taught reads' geometry is measured (pitch_line).
    off = pitch_off(result, photo_truth.cells, photo_truth.width) if deck is not None else None
    return CityRead(score.right, score.cells, score.exact, silent, kind, len(unnamed) - silent, off)


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


@dataclass
class EditionRead:
    """One edition: its deck taught (cards right at once and after the tap, and why not taught), its city
    read with the deck (None when not taught) over ``cells`` blocks, and without it."""

    seed: int
    style: str
    cards: int
    asked: bool
    after_tap: int
    why: str
    got: CityRead | None
    cells: int
    runs_off: bool
    untaught: CityRead

    @property
    def scored(self) -> CityRead | None:
        return self.got if self.got is not None and self.got.kind == "scored" else None


def read_edition(seed: int, jpeg: object) -> EditionRead:
    """Render edition ``seed``'s deck and city photos, teach the deck, read the city with it and without."""
    edition = random_city_edition(np.random.default_rng(seed))
    deck_rgb, deck_truth = render_deck(seed, ppm=3.0, edition=edition)
    deck, right, asked, after, why = _teach(jpeg(deck_rgb), deck_truth)  # type: ignore[operator]
    photo = render_photo(seed, edition=edition, wrecktar=False, poi=False, construction=0)
    got = read_city(photo.jpeg, photo.truth, deck) if deck is not None else None
    # The taught read's blocks over its own cells (the truth's and the read's), the truth's when the deck
    # was not taught: the untaught read's stray blocks are no part of it.
    cells = got.cells if got is not None else compare_cities(parse_city(photo.truth.city), None).cells
    style = f"{'textured' if edition.textured else 'flat'}{', outlined' if edition.outline_mm else ''}"
    untaught = read_city(photo.jpeg, photo.truth, None)
    return EditionRead(seed, style, right, asked, after, why, got, cells, runs_off(photo.truth), untaught)


def edition_line(e: EditionRead) -> str:
    got, untaught = e.got, e.untaught
    read = "not read" if got is None else f"{got.right}/{got.cells} {got.kind}, silent {got.silent}"
    read += f" (harmless {got.harmless})" if got is not None and got.harmless else ""
    tapped = f" asked, after one tap {e.after_tap}/18" if e.asked else ""
    refused = f" refused: {e.why}" if e.why else ""
    style = e.style + (", runs off the photo" if e.runs_off else "")
    return (f"  city edition {e.seed} ({style}): cards {e.cards}/18{tapped}{refused}; city {read}; "
            f"untaught {untaught.kind} {untaught.right}/{untaught.cells}")  # fmt: skip


def blocks_line(reads: list[EditionRead]) -> str:
    """Blocks right over blocks, cities exact and silent (harmless) cells of ``reads``."""
    right = sum(e.got.right for e in reads if e.got is not None)
    cells = sum(e.cells for e in reads)
    exact = sum(e.scored is not None and e.scored.exact for e in reads)
    silent = sum(e.scored.silent for e in reads if e.scored is not None)
    harmless = sum(e.scored.harmless for e in reads if e.scored is not None)
    share = 100 * right / max(1, cells)
    return (f"blocks {right}/{cells} ({share:.1f} %), cities exact {exact}/{len(reads)}, silent {silent} "
            f"(harmless {harmless})")  # fmt: skip


def scored_line(reads: list[EditionRead]) -> str:
    """What a player is given a total for: the cities scored (:func:`blocks_line`), and the cities refused
    instead (a retake, a deck that does not fit, or no deck taught), which print no total to be wrong."""
    scored = [e for e in reads if e.scored is not None]
    kinds = Counter("no deck" if e.got is None else e.got.kind for e in reads if e.scored is None)
    refused = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    return (f"scored {len(scored)}: {blocks_line(scored)}; refused {len(reads) - len(scored)}"
            f"{f' ({refused})' if refused else ''}")  # fmt: skip


def pitch_line(reads: list[EditionRead]) -> str:
    """How near the taught reads' lattice pitch came to the cards' own (the geometry, apart from reading)."""
    offs = [e.got.pitch_off for e in reads if e.got is not None and e.got.pitch_off is not None]
    within = sum(off <= 0.02 for off in offs)
    beyond = sum(off > 0.05 for off in offs)
    return (f"  lattice pitch against the cards' (taught, {len(offs)} fitted): within 2 % on {within}, "
            f"off by more than 5 % on {beyond}")  # fmt: skip


def closing_lines(reads: list[EditionRead]) -> tuple[str, str, str, str]:
    n = len(reads)
    taught = sum(e.cards == 18 for e in reads)
    asked = sum(e.asked for e in reads)
    tapped = sum(e.after_tap == 18 for e in reads)
    refused = sum(e.untaught.kind == "needs_deck" for e in reads)
    exact = sum(e.untaught.exact and e.untaught.kind == "scored" for e in reads)
    whole = [e for e in reads if not e.runs_off]
    off = [e for e in reads if e.runs_off]
    retaken = sum(e.got is not None and e.got.kind == "retake" for e in off)
    return (
        f"city editions: taught {taught}/{n} (asked {asked}, {tapped}/{n} after one tap), "
        f"{blocks_line(reads)}, untaught needs_deck {refused}/{n} (exact {exact})",
        f"  of them showing the whole city ({len(whole)}): {blocks_line(whole)}; running off the photo "
        f"{len(off)}, retaken {retaken}/{len(off)}",
        f"  of the whole cities, {scored_line(whole)}",
        pitch_line(reads),
    )


def city_editions(count: int, jpeg: object, only: tuple[int, ...] = ()) -> None:
    """The editions' lines and the closing lines; ``only``: the seeds to run of the ``count`` (for looking
    at a few, not for figures; all when empty)."""
    seeds = [CITY_EDITION_SEED_BASE + i for i in range(count)]
    reads = []
    for seed in (s for s in seeds if not only or s in only):
        reads.append(read_edition(seed, jpeg))
        print(edition_line(reads[-1]), flush=True)
    for line in closing_lines(reads):
        print(line, flush=True)

"""The Circle the Wagons town read as a stack of the 18 known cards (vision.towns), on hand-made readings:
towns laid from known cards and read cleanly, with one cell misread, a cell no card can show, a card
turned by 180°, a whole town of 18 cards."""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from scoring.wagons.cards import CARDS
from scoring.wagons.town import Territory
from scoring.wagons.town_text import parse_town
from vision.cards import MAX_NODES
from vision.towns import (
    DOUBT_MARGIN,
    TOKENS,
    TownDecoding,
    TownEvidenceError,
    TownPlacement,
    decode_town,
    lay_town,
)
from vision.towns.program import PLACEMENT_COST

ROOT = Path(__file__).resolve().parents[2]
SURE = 0.99
# The rulebook's example town (samples/wagons-rulebook.town) as its cards lie, in a lattice with one cell
# of table round it.
RULEBOOK = (
    TownPlacement(13, False, 2, 2),
    TownPlacement(4, False, 2, 1),
    TownPlacement(14, False, 2, 4),
    TownPlacement(0, False, 1, 5),
    TownPlacement(2, False, 4, 1),
    TownPlacement(1, False, 4, 3),
)


def rulebook_tokens() -> list[list[str]]:
    """The rulebook town's sample file, as tokens, with a ring of table round it."""
    town = parse_town((ROOT / "samples" / "wagons-rulebook.town").read_text())
    inner = [["." if t is None else t.token() for t in row] for row in town.grid]
    return [["."] * (town.n_cols + 2), *([".", *row, "."] for row in inner), ["."] * (town.n_cols + 2)]


def laid_tokens(placements: list[TownPlacement] | tuple[TownPlacement, ...]) -> list[list[str]]:
    """The tokens of a town laid from ``placements`` (later on top), with a ring of table round it; the
    placements must lie at row and column 1 or more."""
    shown = lay_town(placements)
    rows = max(r for r, _ in shown) + 2
    cols = max(c for _, c in shown) + 2
    return [[shown[(r, c)][0].token() if (r, c) in shown else "." for c in range(cols)] for r in range(rows)]


def clean(token: str, p: float = SURE) -> dict[str, float]:
    """A clean reading: ``token`` at ``p``, the rest spread evenly over the other 36 labels."""
    rest = (1 - p) / (len(TOKENS) - 1)
    return {t: p if t == token else rest for t in TOKENS}


def clean_grid(tokens: list[list[str]]) -> list[list[dict[str, float]]]:
    return [[clean(t) for t in row] for row in tokens]


def random_town(seed: int, n: int = 18) -> list[TownPlacement]:
    """``n`` distinct cards laid one by one as the rules allow (either way round, each overlapping or
    beside a card already down, never meeting it at a corner only), moved to start at row and column 1."""
    rng = random.Random(seed)
    order = rng.sample(sorted(CARDS), n)
    placed = [TownPlacement(order[0], rng.random() < 0.5, 0, 0)]
    for card in order[1:]:
        while True:
            at = rng.choice(placed)
            dr, dc = rng.randint(-2, 2), rng.randint(-2, 2)
            if (dr, dc) != (0, 0) and min(abs(dr), abs(dc)) <= 1:
                placed.append(TownPlacement(card, rng.random() < 0.5, at.row + dr, at.col + dc))
                break
    r0, c0 = min(p.row for p in placed), min(p.col for p in placed)
    return [TownPlacement(p.card, p.rotated, p.row - r0 + 1, p.col - c0 + 1) for p in placed]


def _tokens(decoding: TownDecoding) -> list[list[str]]:
    return [[cell.token for cell in row] for row in decoding.cells]


def test_the_rulebook_town_read_cleanly_decodes_to_itself_with_its_own_cards() -> None:
    tokens = rulebook_tokens()
    decoding = decode_town(clean_grid(tokens))
    assert _tokens(decoding) == tokens
    assert sorted(decoding.placements, key=lambda p: p.card) == sorted(RULEBOOK, key=lambda p: p.card)
    shown = lay_town(RULEBOOK)
    for (r, c), (_, card) in shown.items():
        assert decoding.cells[r][c].card == card
    assert decoding.where("doubtful") == decoding.where("corrected") == decoding.where("unexplained") == []
    assert min(cell.margin for row in decoding.cells for cell in row) > DOUBT_MARGIN
    assert decoding.notes == ()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_town_of_all_18_cards_read_cleanly_decodes_to_itself_in_bounded_time(seed: int) -> None:
    placements = random_town(seed)
    tokens = laid_tokens(placements)
    start = time.perf_counter()
    decoding = decode_town(clean_grid(tokens))
    elapsed = time.perf_counter() - start
    assert _tokens(decoding) == tokens
    assert decoding.where("unexplained") == [] and decoding.where("doubtful") == []
    # Each cell's card is the one that lies there, except where a card shows one cell only: a card the
    # town hides whole, with that territory, tells the same town (each card still once).
    shown = lay_town(placements)
    visible = Counter(card for _, card in shown.values())
    for (r, c), (_, card) in shown.items():
        found = decoding.cells[r][c].card
        assert found == card or (visible[card] == 1 and found not in visible), (r, c)
    assert len(decoding.cards) == len(set(decoding.cards)) == len(visible)
    # One search for the town and one per cell, each within best_stacking's node limit.
    cells = len(tokens) * len(tokens[0])
    assert decoding.nodes <= MAX_NODES * (cells + 1)
    assert elapsed < 10.0  # some 0.4 s here: generous for a busy shared machine


def test_a_misread_territory_is_corrected_by_its_card_and_the_margin_says_by_how_much() -> None:
    tokens = rulebook_tokens()
    grid = clean_grid(tokens)
    assert tokens[2][3] == "D/f"  # card 13's top right, the only D/f in the town
    grid[2][3] = {"M/f": 0.7, "D/f": 0.25}  # the classifier reads the wrong type
    decoding = decode_town(grid)
    cell = decoding.cells[2][3]
    assert (cell.token, cell.source, cell.card, cell.read) == ("D/f", "card", 13, Territory("M", "f"))
    assert cell.corrected and not cell.doubtful and cell.alternative == "M/f"
    # The best town reading M/f there has an unused card (9, with M/f at its top left) peeking out under
    # the others: one card more, at PLACEMENT_COST, against the classifier's odds.
    assert cell.margin == pytest.approx(math.log(0.25) - math.log(0.7) + PLACEMENT_COST)
    assert _tokens(decoding) == tokens
    assert decoding.where("corrected") == [(2, 3)]


def test_a_misread_the_cards_barely_outweigh_is_reported_in_doubt() -> None:
    grid = clean_grid(rulebook_tokens())
    grid[2][3] = {"M/f": 0.9, "D/f": 0.1}
    cell = decode_town(grid).cells[2][3]
    assert cell.token == "D/f" and cell.doubtful and cell.alternative == "M/f"


def test_in_a_town_of_all_18_cards_even_a_sure_misreading_is_corrected() -> None:
    placements = random_town(1)
    tokens = laid_tokens(placements)
    grid = clean_grid(tokens)
    (r, c), (territory, card) = next(iter(sorted(lay_town(placements).items())))
    wrong = next(t for t in TOKENS[:-1] if t[0] != territory.terrain and t[2] == territory.icon)
    grid[r][c] = {wrong: 0.999, territory.token(): 0.001}
    cell = decode_town(grid).cells[r][c]
    assert (cell.token, cell.card, cell.corrected) == (territory.token(), card, True)
    assert cell.margin > DOUBT_MARGIN


def test_a_cell_no_card_can_show_stays_as_read_and_is_marked_unexplained() -> None:
    tokens = rulebook_tokens()
    tokens[0][0] = "P/c"  # a lone territory in the table's corner: no card fits there
    grid = clean_grid(tokens)
    grid[5][2] = {"W/w": 0.999}  # no card shows water with a wagon; W/g there, read surely wrong
    decoding = decode_town(grid)
    assert decoding.where("unexplained") == [(0, 0), (5, 2)]
    lone, misfit = decoding.cells[0][0], decoding.cells[5][2]
    assert (lone.token, lone.source, lone.card, lone.corrected) == ("P/c", "unexplained", None, False)
    # A territory no card explains is as likely a misread table: in doubt, and it says so.
    assert lone.doubtful and lone.alternative == "."
    assert (misfit.token, misfit.source, misfit.card) == ("W/w", "unexplained", None)
    rest = rulebook_tokens()
    assert all(
        decoding.cells[r][c].token == rest[r][c]
        for r in range(len(rest))
        for c in range(len(rest[0]))
        if (r, c) not in {(0, 0), (5, 2)}
    )


def test_a_card_turned_by_180_degrees_is_found_turned() -> None:
    placements = [TownPlacement(7, False, 1, 1), TownPlacement(5, True, 2, 2)]
    tokens = laid_tokens(placements)
    decoding = decode_town(clean_grid(tokens))
    assert set(decoding.placements) == set(placements)
    assert decoding.cells[3][3].card == 5 and decoding.cells[3][3].rotated is True
    assert decoding.cells[3][3].token == "F/b"  # card 5's top left, now bottom right
    alone = decode_town(clean_grid(laid_tokens([TownPlacement(12, True, 1, 1)])))
    assert alone.placements == (TownPlacement(12, True, 1, 1),)


def test_the_decoding_is_the_same_every_time_whatever_was_decoded_before() -> None:
    rng = np.random.default_rng(7)
    tokens = laid_tokens(random_town(3, n=10))
    grid = []
    for row in tokens:  # noisy readings: the true label likely, the rest random
        line = []
        for token in row:
            p = rng.dirichlet(np.full(len(TOKENS), 0.3)) * 0.3
            p[TOKENS.index(token)] += 0.7
            line.append(p.tolist())
        grid.append(line)
    first = decode_town(grid)
    decode_town(clean_grid(rulebook_tokens()))
    again = decode_town(grid)
    assert repr(first) == repr(again)
    assert _tokens(first) == tokens


def test_which_card_shows_a_lone_cell_follows_the_cards_excluded() -> None:
    # Card 16 shows only its top left, D/w, the other three under cards 7 and 11: card 4 (D/w at its
    # top left too) or card 9 turned would show the same town.
    placements = [
        TownPlacement(16, False, 1, 1),
        TownPlacement(7, False, 1, 2),
        TownPlacement(11, True, 2, 1),
    ]
    tokens = laid_tokens(placements)
    assert lay_town(placements)[(1, 1)] == (Territory("D", "w"), 16)
    for excluded, card in (((4, 9), 16), ((16, 9), 4), ((4, 16), 9)):
        decoding = decode_town(clean_grid(tokens), exclude=excluded)
        assert _tokens(decoding) == tokens
        assert not set(excluded) & set(decoding.cards) and decoding.cells[1][1].card == card
        assert decoding.cells[1][1].rotated is (card == 9)  # D/w is card 9's bottom right
    with pytest.raises(TownEvidenceError, match="cannot exclude card 18"):
        decode_town(clean_grid(tokens), exclude=[18])


def test_a_card_showing_one_cell_read_plainly_is_kept_rather_than_explained_by_the_card_under_it() -> None:
    # Card 5 first, card 6 over its right half, then the rulebook's town over all of card 6 but its top
    # left cell, where card 5's top right lies under it. The classifier reads card 6's territory there at
    # 0.8 and card 5's at 0.02: the town keeps a card showing it (those odds beat PLACEMENT_COST) rather
    # than drop one and show card 5's territory there.
    placements = (TownPlacement(5, False, 1, 3), TownPlacement(6, False, 1, 4), *RULEBOOK)
    tokens = laid_tokens(placements)
    shown = lay_town(placements)
    assert [rc for rc, (_, card) in shown.items() if card == 6] == [(1, 4)]
    under = lay_town(placements[:1])[(1, 4)][0].token()
    assert under != tokens[1][4]
    grid = clean_grid(tokens)
    grid[1][4] = {tokens[1][4]: 0.8, under: 0.02}
    assert math.log(0.8 / 0.02) > PLACEMENT_COST
    decoding = decode_town(grid)
    assert _tokens(decoding) == tokens
    # Card 6, or a card the town hides whole with the same territory there (it tells the same town).
    assert decoding.cells[1][4].source == "card" and len(decoding.cards) == len(placements)

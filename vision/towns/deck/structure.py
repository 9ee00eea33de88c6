"""A print's look learned from the deck's structure alone: which fill is which terrain and which shape is
which icon, with no prior look and no word from the player.

The 18 cards are known: each shows four territories in a known layout. A photo of the whole deck is
therefore a puzzle with one solution:

1. The territories' fills (:func:`vision.towns.deck.look.fill_colour`) fall into six groups of one colour
   each (:func:`fill_groups`): whatever the print, the six terrains differ in colour.
2. One naming of the six groups makes the cards' layouts the known ones (:func:`name_fills`): the 720
   namings are tried, and under the right one every card found shows one known card's terrain layout,
   each card once. No two cards share a terrain layout, even turned, and no card reads the same turned, so
   the naming also tells each card and its turn.
3. The cards so named say which icon each territory shows; their icon masks, stood upright by the card's
   turn, are the print's icons (:class:`PrintLook`).

The look is then a reader of its own (:mod:`vision.towns.deck.look_reader`): a territory's probabilities
follow from how close its fill lies to each named fill and its icon to each icon's examples. The same
probabilities score every card found against the 18 (:func:`look_readings`), so that a card the puzzle did
not settle is named by the usual assignment, and a card that fits none is refused.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

import numpy as np

from scoring.wagons.cards import CARDS, card_grid
from scoring.wagons.town import ICONS, TERRAINS
from vision.deck import colour_groups
from vision.towns.deck.look import icon_distance

__all__ = [
    "NoStructure",
    "PrintLook",
    "fill_distance",
    "fill_groups",
    "learn_look",
    "look_readings",
    "name_fills",
    "structure_share",
    "with_aliases",
]

# Lab weights of the fill distance: lightness weighs less (a lamp or a shadow changes it most).
FILL_WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)
# A terrain's fill spread is never taken below this (weighted ΔE): one photo's flat fills spread by 2–4,
# a town photo of the same print, smaller and in other light, by more.
MIN_FILL_SPREAD = 6.0
# The icon distance (1 − soft IoU) over which a territory's icon likelihood falls by e: shapes of one icon
# lie within about 0.2 of each other in a deck photo, different icons 0.5 and more apart.
ICON_SCALE = 0.08
# A naming must make at least this share of the cards found show a known layout.
MIN_NAMED = 0.75
# A card's 4 quadrants: TL, TR, BL, BR (the deck photo's order).
QUADRANTS = 4


class NoStructure(ValueError):
    """The deck photo's territories could not be matched to the 18 cards' structure (why in the text)."""


@dataclass(frozen=True)
class PrintLook:
    """One print's look: ``fills`` (6, 3) the Lab fill of each terrain of :data:`TERRAINS`, ``spread`` (6,)
    how far a territory's fill strays from it (weighted ΔE); ``icons`` (K, S, S) icon masks as they stand
    on an unturned card and ``icon_of`` (K,) which icon of :data:`ICONS` each shows; ``icon_mass`` the
    median share of a territory's icon window an icon covers; ``aliases`` (shown, meant) the tokens a
    territory of this print shows for another (a territory printed in another terrain's colour than its
    card's: :func:`with_aliases`)."""

    fills: np.ndarray
    spread: np.ndarray
    icons: np.ndarray
    icon_of: np.ndarray
    icon_mass: float
    aliases: tuple[tuple[str, str], ...] = ()

    def to_arrays(self) -> dict[str, np.ndarray]:
        """The look as a deck file's arrays (:data:`vision.deck.taught.EXTRA_ARRAYS`)."""
        return {
            "look_fills": self.fills,
            "look_spread": self.spread,
            "look_icons": self.icons,
            "look_icon_of": self.icon_of.astype(np.float32),
            "look_icon_mass": np.array([self.icon_mass]),
            "look_aliases": np.array([_alias_code(a) for a in self.aliases], np.float32).reshape(-1, 4),
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> PrintLook | None:
        """The look kept in a deck file's ``arrays``, None when it keeps none; raises :class:`ValueError`
        for arrays that do not make one."""
        if "look_fills" not in arrays:
            return None
        fills, spread = arrays["look_fills"].astype(np.float32), arrays["look_spread"].astype(np.float32)
        icons, icon_of = arrays["look_icons"].astype(np.float32), arrays["look_icon_of"].astype(int)
        mass = arrays["look_icon_mass"].astype(np.float32)
        n = len(TERRAINS)
        if fills.shape != (n, 3) or spread.shape != (n,) or mass.shape != (1,):
            raise ValueError("look fills, spreads or icon mass of the wrong shape")
        if icons.ndim != 3 or icon_of.shape != (len(icons),) or not set(icon_of.tolist()) == set(range(n)):
            raise ValueError("look icons of the wrong shape, or not every icon shown")
        values = (fills, spread, icons, mass)
        if not all(np.isfinite(v).all() for v in values) or not (spread > 0).all():
            raise ValueError("look values not finite")
        codes = arrays.get("look_aliases", np.zeros((0, 4))).astype(int)
        if codes.ndim != 2 or codes.shape[1] != 4 or not ((codes >= 0) & (codes < n)).all():
            raise ValueError("look aliases of the wrong shape")
        aliases = tuple(_alias_of(c) for c in codes.tolist())
        return cls(fills, spread, icons, icon_of, float(mass[0]), aliases)

    def terrain_logp(self, fills: np.ndarray) -> np.ndarray:
        """Log-probabilities (N, 6) of each terrain for territories of fill ``fills`` (N, 3), and the
        weighted distance to the nearest named fill in units of its spread (N,)."""
        d = fill_distance(fills, self.fills) / self.spread[None, :]
        logits = -0.5 * d**2
        return logits - _logsumexp(logits), d.min(axis=1)

    def icon_logp(self, masks: np.ndarray) -> np.ndarray:
        """Log-probabilities (N, 6) of each icon for masks (N, S, S), either way up (a card may lie turned):
        from each icon's nearest example."""
        both = np.concatenate([masks, masks[:, ::-1, ::-1]])
        d = icon_distance(both[:, None], self.icons[None])  # (2N, K)
        d = np.minimum(d[: len(masks)], d[len(masks) :])
        nearest = np.stack([d[:, self.icon_of == k].min(axis=1) for k in range(len(ICONS))], axis=1)
        logits = -nearest / ICON_SCALE
        return logits - _logsumexp(logits)


def _alias_code(alias: tuple[str, str]) -> list[int]:
    (t1, i1), (t2, i2) = (token.split("/") for token in alias)
    return [TERRAINS.index(t1), ICONS.index(i1), TERRAINS.index(t2), ICONS.index(i2)]


def _alias_of(code: list[int]) -> tuple[str, str]:
    return (f"{TERRAINS[code[0]]}/{ICONS[code[1]]}", f"{TERRAINS[code[2]]}/{ICONS[code[3]]}")


def with_aliases(look: PrintLook, fills: np.ndarray, tokens: list[str]) -> PrintLook:
    """``look`` with an alias for each territory of the cards named (fills (4 N, 3) and the tokens its card
    says, four a card) whose fill lies within its spread of another terrain's fill than its card's: that
    print shows it so, and a town's copy of the card will too."""
    terrain, nearest = look.terrain_logp(fills)
    shown = terrain.argmax(axis=1)
    aliases = set(look.aliases)
    for k, token in zip(shown.tolist(), tokens, strict=True):
        meant, icon = token.split("/")
        if TERRAINS[k] != meant:
            aliases.add((f"{TERRAINS[k]}/{icon}", token))
    return replace(look, aliases=tuple(sorted(aliases)))


def _logsumexp(x: np.ndarray) -> np.ndarray:
    top = x.max(axis=1, keepdims=True)
    return top + np.log(np.exp(x - top).sum(axis=1, keepdims=True))


def fill_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Weighted Lab distance of every fill of ``a`` (N, 3) to every fill of ``b`` (M, 3): (N, M)."""
    diff = (a[:, None, :] - b[None, :, :]) * FILL_WEIGHTS
    return np.sqrt((diff**2).sum(axis=2))


def fill_groups(fills: np.ndarray, k: int = len(TERRAINS)) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` groups of the territories' ``fills`` (N, 3): each territory's group (N,) and the groups'
    centres (k, 3), by k-means on the weighted Lab colours (seeded: the same photo groups the same)."""
    if len(fills) < k:
        raise NoStructure(f"only {len(fills)} territories found, fewer than the {k} terrains")
    return colour_groups(fills, FILL_WEIGHTS, k)


def _layouts() -> dict[tuple[str, ...], tuple[int, bool]]:
    """Each card's terrain layout (TL, TR, BL, BR) either way round → (card, turned)."""
    out = {}
    for number in CARDS:
        for turned in (False, True):
            (tl, tr), (bl, br) = card_grid(number, turned)
            out[tuple(t.terrain for t in (tl, tr, bl, br))] = (number, turned)
    return out


def name_fills(groups: np.ndarray) -> tuple[str, int, int]:
    """The naming of the fill groups (a string: the terrain of group 0, 1, …) under which most of the
    cards found (``groups`` per territory, four a card) show a known layout, each card once; with how many
    cards it names and how many the next best naming does."""
    cards = groups.reshape(-1, QUADRANTS)
    layouts = _layouts()
    scores = []
    for naming in itertools.permutations(TERRAINS):
        named = {layouts.get(tuple(naming[g] for g in card)) for card in cards.tolist()}
        named.discard(None)
        scores.append((len({n for n, _ in named}), "".join(naming)))  # type: ignore[misc]
    scores.sort(reverse=True)
    return scores[0][1], scores[0][0], scores[1][0]


def structure_share(fills: np.ndarray) -> float:
    """The share of the cards found (fills (4 N, 3), four a card) whose terrain layout is a known card's
    under the best naming of their fill groups: about 1 for a Circle the Wagons deck of any print, low for
    other cards."""
    n_cards = len(fills) // QUADRANTS
    if n_cards < 2 or len(fills) < len(TERRAINS):
        return 0.0
    groups, _ = fill_groups(fills)
    return name_fills(groups)[1] / n_cards


def learn_look(fills: np.ndarray, masks: np.ndarray) -> PrintLook:
    """The print's look from the deck's territories, card by card (four a card, TL, TR, BL, BR): fills
    (4 N, 3) and icon masks (4 N, S, S). Raises :class:`NoStructure` when no naming of the fills makes
    most cards known ones, or two namings do equally well."""
    groups, centres = fill_groups(fills)
    naming, named, runner_up = name_fills(groups)
    n_cards = len(fills) // QUADRANTS
    if named < MIN_NAMED * n_cards:
        raise NoStructure(
            f"the colours of the cards found do not match the 18 cards' territories ({named} of {n_cards} "
            "cards fit one naming of the colours)"
        )
    if runner_up == named:
        raise NoStructure("two namings of the cards' colours fit the 18 cards equally well")
    layouts = _layouts()
    order = [naming.index(t) for t in TERRAINS]
    icons, icon_of, spread = [], [], np.zeros(len(TERRAINS))
    for i, card in enumerate(groups.reshape(-1, QUADRANTS).tolist()):
        hit = layouts.get(tuple(naming[g] for g in card))
        if hit is None:
            continue
        number, turned = hit
        (tl, tr), (bl, br) = card_grid(number, turned)
        for q, territory in enumerate((tl, tr, bl, br)):
            mask = masks[QUADRANTS * i + q]
            icons.append(mask[::-1, ::-1] if turned else mask)
            icon_of.append(ICONS.index(territory.icon))
    for k, g in enumerate(order):
        own = fills[groups == g]
        spread[k] = max(MIN_FILL_SPREAD, float(np.median(fill_distance(own, centres[g : g + 1]))) * 2.5)
    mass = float(np.median([m.mean() for m in icons])) if icons else 0.0
    return PrintLook(centres[order].astype(np.float32), spread, np.array(icons), np.array(icon_of), mass)


def look_readings(look: PrintLook, fills: np.ndarray, masks: np.ndarray) -> list[dict[str, float]]:
    """Each territory's probability of every token (``"D/w"``) under ``look``: its terrain's times its
    icon's (the deck photo shows only cards, so no table)."""
    terrain, _ = look.terrain_logp(fills)
    icon = look.icon_logp(masks)
    out = []
    for t_row, i_row in zip(terrain.tolist(), icon.tolist(), strict=True):
        out.append(
            {
                f"{t}/{i}": math.exp(lt + li)
                for t, lt in zip(TERRAINS, t_row, strict=True)
                for i, li in zip(ICONS, i_row, strict=True)
            }
        )
    return out

"""Find the cards of a deck photo one by one: each card's outline against the table, not one lattice.

The player lays the 18 cards in a grid, but by hand: the gaps between them are wide or narrow, uneven, and a
card may lie a little askew. So each card is found on its own, as a region of the photo unlike the table (the
table's colours are those of the photo's border, as :mod:`vision.lattice.locate` estimates them), cut from its
neighbours by the gaps and fitted with a quadrilateral; its own four corners map it to a top-down card at the
scanner's scale, whatever the perspective and the gap. The cards are then set side by side in one top-down
*mosaic* (a :class:`~vision.cells.topdown.TopDown` view whose white balance is measured over all of them), so
the classifier and the deck's block patches read them as they read a city; and their places in the grid (card
row and column) come from their centres along the deck's two axes.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cells import TopDown
from vision.city import small_copy
from vision.deck.grid import clusters, completed
from vision.deck.touching import card_sides, row_of_cards, split_region
from vision.lattice import BLOCK_H_MM, BLOCK_W_MM, PX_PER_MM, table_colours, warp

__all__ = ["CARD_PX", "DeckMosaic", "find_cards", "on_grid"]

# A card in the mosaic: two blocks by two, at the scanner's top-down scale; and the table left round it
# (the classifier's crops reach a little beyond a block).
CARD_PX = (2 * PX_PER_MM * BLOCK_W_MM, 2 * PX_PER_MM * BLOCK_H_MM)
MARGIN_PX = 24
# Colour distance from the table (Lab, lightness weighed less: shading changes it most) above which a pixel is
# card; the same cue and weights as vision.lattice.locate's card mask, without its closing, which would bridge
# the gaps between the cards.
CARD_DISTANCE = 18.0
LAB_WEIGHTS = np.array([0.25, 1.0, 1.0], np.float32)
# Regions of a card's area within these factors of the median region are cards; larger ones are cards
# that touch (split at their narrowest) and smaller ones are noise.
CARD_AREA = (0.6, 1.5)
# Lines up to this wide (pixels of the small copy, about 1.5 mm in a deck photo) are bridged to find cards
# whose territories such lines part; those cards are taken when at least QUARTERS times the regions'.
BRIDGE_PX = 5
QUARTERS = 2.5
MIN_BRIDGED = 4
# Bridged cards of the same size within this share are taken when there are more of them (a card's own
# lines had cut some into pieces).
SAME_SIZE = 0.3
# A region of this share of a card or more that is not taken for one leaves the outlines in doubt (a
# piece of a card cut off by art in the table's colours, or cards touching).
PIECE = 0.25
# A card's outline (its convex hull: art in the table's colours may bite into the region) fills at least
# this share of its smallest enclosing rectangle.
SOLIDITY = 0.85
# A card's four outline corners are used when their quadrilateral covers this share of its rectangle.
QUAD_SHARE = 0.97
# The long side of a card over its short side (89 × 63.5 mm: 1.40), within these bounds in the photo.
ASPECT = (1.15, 1.75)


@dataclass(frozen=True)
class DeckMosaic:
    """The cards found in one deck photo: ``places`` (card row, card column) in the grid, ``view`` the
    mosaic of the cards top-down (card ``i`` at ``origins[i]``, its long side along x), and the photo's
    quadrilateral of each card (``corners``, (N, 4, 2) in working-copy pixels: TL, TR, BR, BL);
    ``doubtful`` counts the regions of a card's size or more that were not taken for a card."""

    places: list[tuple[int, int]]
    view: TopDown
    origins: np.ndarray
    corners: np.ndarray
    doubtful: int = 0

    def block_centres(self) -> np.ndarray:
        """The 4 block centres of each card in the mosaic (TL, TR, BL, BR), (4 N, 2)."""
        w, h = CARD_PX
        quads = np.array([(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]) * (w, h)
        return (self.origins[:, None, :] + quads[None]).reshape(-1, 2)


def border_table(lab: np.ndarray) -> np.ndarray:
    """The table's Lab colours (K, 3) of an image (``lab``, uint8 Lab) whose border band, a 25th of its
    short side and 4 px at least, is mostly table."""
    return table_colours(lab, max(4, min(lab.shape[:2]) // 25))


def table_distance(lab: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Each pixel's (float Lab, ..., 3) distance from its nearest ``table`` colour, lightness weighed less
    (:data:`LAB_WEIGHTS`); :data:`CARD_DISTANCE` or more is card."""
    return np.min([np.sqrt((((lab - t) * LAB_WEIGHTS) ** 2).sum(axis=-1)) for t in table], axis=0)


def _card_regions(small: np.ndarray, bridge: int = 0, distance: float = CARD_DISTANCE) -> list[np.ndarray]:
    """Contours (in ``small``'s pixels) of the regions unlike the table (by ``distance`` or more) that could
    each be one card; with ``bridge``, gaps that narrow (pixels) are closed first (a print's lines between
    territories in the table's colour)."""
    h, w = small.shape[:2]
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2LAB)
    dist = table_distance(lab.astype(np.float32), border_table(lab))
    mask = (cv2.blur(dist, (3, 3)) > distance).astype(np.uint8) * 255
    if bridge:
        mask = cv2.morphologyEx(
            mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (bridge, bridge))
        )
    # A card whose territories are the table's colour (white snow on a white table) shows only its outline
    # and icons: what a closed outline encloses is card.
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(mask, outlines, -1, 255, thickness=cv2.FILLED)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    # Holes (art in the table's colours) do not matter: only the outer outline is used.
    return [c for c in contours if cv2.contourArea(c) >= 0.002 * h * w]


def _quad(contour: np.ndarray) -> np.ndarray | None:
    """The four corners of a card's outline (float (4, 2)), or None when it is not card-shaped."""
    hull = cv2.convexHull(contour)
    area = cv2.contourArea(hull)
    rect_w, rect_h = cv2.minAreaRect(hull)[1]
    if min(rect_w, rect_h) <= 0 or area / (rect_w * rect_h) < SOLIDITY:
        return None
    if not ASPECT[0] <= max(rect_w, rect_h) / min(rect_w, rect_h) <= ASPECT[1]:
        return None
    box = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    # The four corners of the outline follow the perspective, but art in the table's colours at a corner
    # cuts it off; the smallest rectangle round the outline keeps the card's full extent, so it is taken
    # unless the corners enclose as much.
    approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
    if len(approx) == 4 and cv2.contourArea(approx) >= QUAD_SHARE * rect_w * rect_h:
        return approx.reshape(4, 2).astype(np.float64)
    return box


def _cards_in(small: np.ndarray) -> tuple[list[np.ndarray], int]:
    """The quadrilaterals of the single cards in ``small``, and how many regions at least a card's size
    could not be taken for one card by its own outline (see :func:`_cards_of`). A territory has a card's
    shape at a quarter of its size: where lines in the table's colour part a print's territories, the
    regions found are territories, and the regions with those lines bridged are the cards (kept when their
    cards are at least :data:`QUARTERS` times the size)."""
    shape = small.shape[:2]
    quads, doubtful = _cards_of(_card_regions(small), shape)
    if not quads:
        return quads, doubtful
    bridged, more_doubt = _cards_of(_card_regions(small, BRIDGE_PX), shape)
    size = float(np.median([cv2.contourArea(q.astype(np.float32)) for q in quads]))
    if not bridged:
        return quads, doubtful
    bridged_size = float(np.median([cv2.contourArea(q.astype(np.float32)) for q in bridged]))
    enough = len(bridged) >= max(MIN_BRIDGED, len(quads) / 5)  # a quarter as many, give or take
    if enough and bridged_size >= QUARTERS * size:  # the regions were territories; these are cards
        return bridged, more_doubt
    if abs(bridged_size / size - 1) <= SAME_SIZE and len(bridged) > len(quads):  # cards parted by lines
        return bridged, more_doubt
    return quads, doubtful


def _cards_of(regions: list[np.ndarray], shape: tuple[int, int]) -> tuple[list[np.ndarray], int]:
    """The quadrilaterals of the single cards among ``regions``, and how many regions at least a card's
    size could not be taken for one card by its own outline (cards touching, or cut by art in the table's
    colours): those split into cards count too, as the split is the scanner's guess."""
    if not regions:
        return [], 0
    areas = np.array([cv2.contourArea(c) for c in regions])
    typical = float(np.median(areas[areas >= 0.3 * areas.max()]))
    single = [
        c
        for c, a in zip(regions, areas, strict=True)
        if CARD_AREA[0] * typical <= a <= CARD_AREA[1] * typical
    ]
    sides = card_sides(single)
    out, doubtful = [], 0
    for contour, area in zip(regions, areas, strict=True):
        if area <= CARD_AREA[1] * typical:
            pieces = [contour]
        else:
            doubtful += 1
            row = row_of_cards(contour, area, typical, sides)
            pieces = row if row else split_region(contour, shape, typical)
        for piece in pieces:
            piece_area = cv2.contourArea(piece)
            fits = CARD_AREA[0] * typical <= piece_area <= CARD_AREA[1] * typical
            quad = _quad(piece) if fits else None
            if quad is not None:
                out.append(quad)
            elif piece_area >= PIECE * typical and area <= CARD_AREA[1] * typical:
                doubtful += 1
    return out, doubtful


def _deck_axis(quads: list[np.ndarray]) -> np.ndarray:
    """The deck's x axis in the photo (unit vector): the mean direction of the cards' long sides."""
    doubled = np.zeros(2)
    for q in quads:
        sides = [q[(k + 1) % 4] - q[k] for k in range(4)]
        longest = max(sides, key=lambda v: float(np.hypot(*v)))
        angle = 2 * np.arctan2(longest[1], longest[0])
        doubled += (np.cos(angle), np.sin(angle))
    half = np.arctan2(doubled[1], doubled[0]) / 2
    return np.array([np.cos(half), np.sin(half)])


def _oriented(quad: np.ndarray, axis: np.ndarray) -> np.ndarray:
    """The corners TL, TR, BR, BL with TL→TR the long side running along ``axis``."""
    centre = quad.mean(axis=0)
    normal = np.array([-axis[1], axis[0]])  # the deck's y axis (image y points down)
    rel = quad - centre
    u, v = rel @ axis, rel @ normal
    tl = int(np.argmin(u + v))
    order = sorted(range(4), key=lambda k: np.arctan2(v[k], u[k]))  # clockwise on screen from the left
    start = order.index(tl)
    return quad[[order[(start + k) % 4] for k in range(4)]]


def find_cards(
    photo: np.ndarray, bridge: int | None = None, distance: float = CARD_DISTANCE
) -> DeckMosaic | None:
    """The cards of a deck photo (upright RGB working copy), or None when none is found. With ``bridge``
    (pixels of the small copy) the gaps that narrow are closed first and nothing else is tried, and a pixel
    is card from ``distance`` from the table's colours on: a print whose blocks' outlines or roads are
    near the table's colour (:mod:`vision.deck.teach_structure` tries several)."""
    small, scale = small_copy(photo)
    if bridge is None:
        quads, doubtful = _cards_in(small)
    else:
        quads, doubtful = _cards_of(_card_regions(small, bridge, distance), small.shape[:2])
    if not quads:
        return None
    axis = _deck_axis(quads)
    corners = np.array([_oriented(q, axis) for q in quads]) / scale
    normal = np.array([-axis[1], axis[0]])
    centres = corners.mean(axis=1)
    width = float(np.median(np.hypot(*(corners[:, 1] - corners[:, 0]).T)))
    height = float(np.median(np.hypot(*(corners[:, 3] - corners[:, 0]).T)))
    rows = clusters(centres @ normal, 0.5 * height)
    cols = clusters(centres @ axis, 0.5 * width)
    order = sorted(range(len(quads)), key=lambda i: (rows[i], cols[i]))
    corners = corners[order]
    places = [(int(rows[i]), int(cols[i])) for i in order]
    return _mosaic(photo, corners, places, doubtful)


def on_grid(photo: np.ndarray, found: DeckMosaic, want: int) -> DeckMosaic | None:
    """The cards ``found`` in the deck photo ``photo`` with the places their grid shows empty filled
    (:func:`vision.deck.grid.completed`), each added place counted as a region in doubt; None unless that
    makes ``want`` cards (more were missed than the grid can place, or none)."""
    corners, places = completed(found.corners, found.places, want)
    if len(places) != want or len(places) == len(found.places):
        return None
    return _mosaic(photo, corners, places, found.doubtful + len(places) - len(found.places))


def _mosaic(
    photo: np.ndarray, corners: np.ndarray, places: list[tuple[int, int]], doubtful: int
) -> DeckMosaic:
    """The cards warped top-down, side by side in rows of six (each with a margin of its own table)."""
    w, h = CARD_PX
    tile_w, tile_h = int(np.ceil(w)) + 2 * MARGIN_PX, int(np.ceil(h)) + 2 * MARGIN_PX
    per_row = 6
    n_rows = -(-len(corners) // per_row)
    image = np.zeros((n_rows * tile_h, per_row * tile_w, 3), np.uint8)
    target = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32) + MARGIN_PX
    origins = []
    for i, quad in enumerate(corners):
        r, c = divmod(i, per_row)
        to_tile = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
        tile = warp(photo, to_tile, (tile_w, tile_h))
        image[r * tile_h : (r + 1) * tile_h, c * tile_w : (c + 1) * tile_w] = tile
        origins.append((c * tile_w + MARGIN_PX, r * tile_h + MARGIN_PX))
    view = TopDown(image, np.eye(3), (0, 0, image.shape[1], image.shape[0]))
    return DeckMosaic(places, view, np.array(origins, float), corners, doubtful)

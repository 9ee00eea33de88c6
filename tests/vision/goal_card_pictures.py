"""Goal cards drawn for the tests, and photos of them on a table or beside a rendered town.

The renderer draws no goal cards, and the publisher's art is never copied: a card here is white paper with
what every print of a goal card has (the name in black capitals, one or two lines, a thin rule under it,
a little rule text, a diagram with a star badge), drawn with OpenCV's own font, laid on a table turned any
way.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

#: A drawn card's size (px): a 63.5 × 88.9 mm card as a phone photo at the scan's working size shows it.
CARD_W, CARD_H = 190, 266
TABLE = (118, 132, 104)


def _title_lines(name: str) -> list[str]:
    """The name in capitals, on two lines when it is long (as the prints set "CIRCLE THE / WAGONS")."""
    words = name.upper().split()
    if len(name) <= 13 or len(words) == 1:
        return [" ".join(words)]
    cut = (len(words) + 1) // 2
    return [" ".join(words[:cut]), " ".join(words[cut:])]


def goal_card(name: str, *, hide_from: float | None = None) -> np.ndarray:
    """A goal card titled ``name`` (RGB, portrait). ``hide_from``: the title is blanked from that share of
    its width on (a card half under glare), so only its start can be read."""
    card = np.full((CARD_H, CARD_W, 3), 246, np.uint8)
    cv2.rectangle(card, (0, 0), (CARD_W - 1, CARD_H - 1), (205, 205, 205), 2)
    font, thick = cv2.FONT_HERSHEY_DUPLEX, 2
    lines = _title_lines(name)
    widest = max(cv2.getTextSize(line, font, 1.0, thick)[0][0] for line in lines)
    scale = min(0.75, 0.84 * CARD_W / widest)
    height = cv2.getTextSize("H", font, scale, thick)[0][1]
    top, step = int(0.04 * CARD_H) + height, int(1.5 * height)
    rule_y = top + (len(lines) - 1) * step + 9
    for k, line in enumerate(lines):
        width = cv2.getTextSize(line, font, scale, thick)[0][0]
        at = ((CARD_W - width) // 2, top + k * step)
        cv2.putText(card, line, at, font, scale, (20, 20, 20), thick, cv2.LINE_AA)
    if hide_from is not None:
        left = (CARD_W - int(0.84 * CARD_W)) // 2 + int(hide_from * 0.84 * CARD_W)
        card[4 : rule_y - 3, left : CARD_W - 6] = 246
    cv2.line(card, (int(0.07 * CARD_W), rule_y), (int(0.93 * CARD_W), rule_y), (25, 25, 25), 2)
    for k, text in enumerate(("3 points per Wagon", "in your town.")):
        y = rule_y + 22 + 16 * k
        cv2.putText(card, text, (22, y), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (40, 40, 40), 1, cv2.LINE_AA)
    badge = (int(0.3 * CARD_W), int(0.75 * CARD_H))
    cv2.circle(card, badge, 22, (30, 30, 30), 3, cv2.LINE_AA)
    cv2.putText(card, "3", (badge[0] - 7, badge[1] + 8), font, 0.7, (30, 30, 30), 2, cv2.LINE_AA)
    cv2.line(card, (badge[0] + 32, badge[1] + 26), (badge[0] + 52, badge[1] - 26), (30, 30, 30), 3)
    cv2.rectangle(card, (badge[0] + 66, badge[1] - 24), (badge[0] + 100, badge[1] + 24), (60, 150, 210), -1)
    return card


def lay_card(photo: np.ndarray, card: np.ndarray, centre: tuple[float, float], turn: float) -> None:
    """Lay ``card`` on ``photo`` (in place) centred at ``centre`` (px), turned ``turn`` degrees."""
    h, w = card.shape[:2]
    turning = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0)
    turning[:, 2] += np.array(centre) - (w / 2, h / 2)
    size = (photo.shape[1], photo.shape[0])
    paper = cv2.warpAffine(card, turning, size, flags=cv2.INTER_LINEAR)
    cover = cv2.warpAffine(np.full((h, w), 255, np.uint8), turning, size, flags=cv2.INTER_LINEAR)
    alpha = cover[..., None].astype(np.float32) / 255
    photo[:] = (paper * alpha + photo * (1 - alpha)).astype(np.uint8)


def in_a_row(
    photo: np.ndarray, cards: Sequence[np.ndarray], turn: float, centre: tuple[float, float]
) -> None:
    """Lay ``cards`` edge to edge in a row through ``centre``, all turned ``turn`` degrees."""
    across = np.array([np.cos(np.radians(-turn)), np.sin(np.radians(-turn))])
    middle = (len(cards) - 1) / 2
    for k, card in enumerate(cards):
        lay_card(photo, card, tuple(np.array(centre) + (k - middle) * (CARD_W - 1) * across), turn)


def table(height: int, width: int, seed: int = 0, colour: tuple[int, int, int] = TABLE) -> np.ndarray:
    """A plain table (RGB) of ``colour`` with a little grain."""
    rng = np.random.default_rng(seed)
    grain = cv2.GaussianBlur(rng.normal(0, 6, (height, width)).astype(np.float32), (0, 0), 3)
    return np.clip(np.array(colour, np.float32) + grain[..., None], 0, 255).astype(np.uint8)


def cards_on(photo: np.ndarray, cards: Sequence[np.ndarray], turns: Sequence[float], left: int) -> None:
    """Lay ``cards`` in a column (two when they do not fit) from x = ``left`` on, turned by ``turns``."""
    h = photo.shape[0]
    step = int(1.08 * CARD_H)
    per_column = max(1, h // step)
    for k, (card, turn) in enumerate(zip(cards, turns, strict=True)):
        column, row = divmod(k, per_column)
        centre = (left + step // 2 + column * step, step // 2 + row * step + (h - per_column * step) // 2)
        lay_card(photo, card, centre, turn)


def beside(town_rgb: np.ndarray, cards: Sequence[np.ndarray], turns: Sequence[float]) -> np.ndarray:
    """The town photo widened by a strip of table on its right where ``cards`` lie."""
    h = town_rgb.shape[0]
    columns = -(-len(cards) // max(1, h // int(1.08 * CARD_H)))
    strip = table(h, columns * int(1.08 * CARD_H) + 40, seed=1)
    edge = np.median(town_rgb[:, -20:].reshape(-1, 3), axis=0)
    strip = np.clip(strip.astype(np.float32) - np.array(TABLE) + edge, 0, 255).astype(np.uint8)
    photo = np.hstack([town_rgb, strip])
    cards_on(photo, cards, turns, town_rgb.shape[1] + 20)
    return photo

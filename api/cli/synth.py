"""``sprawlscan synth``: write simulated photos of finished cities with their ground truth.

``sprawlscan synth --count N --seed S --out DIR`` renders photos ``S .. S+N-1`` as ``DIR/photo-NNNN.jpg``
(NNNN counts from 0) with ``DIR/photo-NNNN.json`` beside each (the truth, ``models.synth.truth``). The same
arguments always write the same bytes, so an evaluation set is regenerated rather than stored.
Every photo shows the city's three scoring cards beside it (``--set scoring_cards=false`` leaves them
out), so a scan of it reads them. ``--set KEY=VALUE`` fixes a condition for every photo (``--set
table=wood --set tilt=30``), and ``--long-side PX`` renders smaller images than the phone's 12 MP;
``--heic`` writes HEIC files (upright, as iPhones upload them) instead of JPEG.

``sprawlscan synth --deck --seed S --out DIR`` writes instead the photo a player takes to teach the scanner
their deck (``sprawlscan teach``): the 18 cards face up, six a row, in the seed's order and turns, as
``DIR/deck-NNNN.jpg`` with ``DIR/deck-NNNN.json`` (each card's place, number and turn, and the grid as
``teach`` prints it; ``models.synth.deck``).

``--game wagons`` does the same for Circle the Wagons (``models.synth.wagons``): town photos whose JSON holds
``"game": "wagons"`` and the town in ``city`` (town format), and with ``--deck`` the deck photo of its 18
cards. ``--set look=K`` photographs print K of the art, ``--set art_spread=X`` draws the art X times as
widely varied (default 1).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2

from api.cli.argtypes import whole
from games import game_named, game_names
from scoring.errors import InputError

DESCRIPTION = """\
Write simulated photos of random finished Sprawlopolis cities, each with its ground truth.

  sprawlscan synth --count N --seed S --out DIR

renders photos S .. S+N-1 as DIR/photo-NNNN.jpg (NNNN counts from 0), with DIR/photo-NNNN.json beside
each holding the true city and scoring cards. Each photo shows the three scoring cards beside the city
(--set scoring_cards=false leaves them out). The same arguments always write the same bytes, so an
evaluation set can be made again rather than stored.

  --set KEY=VALUE   fix a condition for every photo, e.g. --set table=wood --set tilt=30
  --long-side PX    render smaller images than a phone's 12 MP
  --heic            write HEIC files (upright, as iPhones upload them) instead of JPEG

  sprawlscan synth --deck --seed S --out DIR

writes a deck photo to teach the scanner with (sprawlscan teach DIR/deck-0000.jpg --out my.deck): the 18
cards face up, six a row, as DIR/deck-NNNN.jpg, with DIR/deck-NNNN.json saying which card lies where
(--count N: N decks, seeds S .. S+N-1; --long-side PX: its long side, else 3 px per mm).

  sprawlscan synth --game wagons --count N --seed S --out DIR

writes Circle the Wagons town photos instead (photo-NNNN.json has "game": "wagons" and the town in its
"city" field); with --deck, the deck photo of the 18 Circle the Wagons cards. For towns, --set look=K
photographs print K of the look-alike art (default: each photo its own) and --set art_spread=X varies the
art X times as widely (0..3, default 1).
"""


class SynthOptionError(InputError):
    """A ``synth`` option that cannot be used (a bad count, seed or condition)."""

    code = "bad_synth_option"


def parse_setting(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` → (key, value); the value is read as JSON when it can be (numbers, true/false,
    ``[1.1, 1, 0.9]``), else kept as text (``table=wood``)."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise SynthOptionError(f"--set expects KEY=VALUE, got {text!r}")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    if isinstance(value, list):
        value = tuple(value)
    return key.strip(), value


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "synth",
        help="write simulated photos of random finished cities with their ground truth",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--count", type=whole("count", 1), default=None, help="number of photos (default 10; with --deck 1)"
    )
    p.add_argument("--seed", type=whole("seed"), default=0, help="seed of the first photo (default 0)")
    p.add_argument("--out", required=True, help="folder to write photo-NNNN.jpg and photo-NNNN.json into")
    p.add_argument(
        "--long-side",
        type=whole("long side", 1),
        default=None,
        help="pixels along the long side (default 4032)",
    )
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="fix a condition")
    p.add_argument(
        "--heic", action="store_true", help="write photo-NNNN.heic (as iPhones upload) instead of .jpg"
    )
    p.add_argument(
        "--deck", action="store_true", help="write deck photos to teach with (deck-NNNN.jpg) instead"
    )
    p.add_argument(
        "--game",
        choices=game_names(),
        default=game_names()[0],
        help=f"the game photographed (default: {game_names()[0]})",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.deck:
        return run_deck(args)
    overrides = dict(parse_setting(s) for s in args.set)
    if args.long_side is not None:
        overrides["long_side"] = args.long_side
    game = game_named(args.game)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for k in range(10 if args.count is None else args.count):
        try:
            photo = game.render_photo(args.seed + k, overrides)
        except (ValueError, TypeError) as exc:
            raise SynthOptionError(str(exc)) from None
        stem = out / f"photo-{k:04d}"
        if args.heic:
            stem.with_suffix(".heic").write_bytes(photo.heic())
        else:
            stem.with_suffix(".jpg").write_bytes(photo.jpeg)
        stem.with_suffix(".json").write_text(photo.truth.dumps(), encoding="utf-8")
        c = photo.conditions
        suffix = ".heic" if args.heic else ".jpg"
        print(f"{stem}{suffix}  seed {args.seed + k}  {c.table}, tilt {c.tilt:.0f}°", file=sys.stderr)
    return 0


def run_deck(args: argparse.Namespace) -> int:
    """``synth --deck``: deck photos of the game's 18 cards and their truth."""
    if args.set or args.heic:
        raise SynthOptionError(f"--deck cannot be used with {'--set' if args.set else '--heic'}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for k in range(1 if args.count is None else args.count):
        seed = args.seed + k
        rgb, truth = game_named(args.game).render_deck_photo(seed)
        if args.long_side is not None:
            rgb, truth = _resized(rgb, truth, args.long_side)
        ok, jpeg = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 88])
        if not ok:
            raise OSError("could not encode the deck photo")
        stem = out / f"deck-{k:04d}"
        stem.with_suffix(".jpg").write_bytes(jpeg.tobytes())
        stem.with_suffix(".json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
        print(f"{stem}.jpg  seed {seed}  {truth['width']}×{truth['height']}", file=sys.stderr)
    return 0


def _resized(rgb: Any, truth: dict[str, Any], long_side: int) -> tuple[Any, dict[str, Any]]:
    """The deck photo shrunk or grown to ``long_side`` px along its long side, its truth's size with it."""
    h, w = rgb.shape[:2]
    k = long_side / max(h, w)
    size = (max(1, round(w * k)), max(1, round(h * k)))
    rgb = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_CUBIC)
    ppm = truth["px_per_mm"] * k
    return rgb, {**truth, "width": size[0], "height": size[1], "px_per_mm": round(ppm, 4)}

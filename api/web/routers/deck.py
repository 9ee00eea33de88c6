"""The taught-deck endpoints: ``/api/v1/deck`` (teach with POST, look with GET, correct with PATCH,
remove with DELETE), for a Sprawlopolis or a Circle the Wagons deck (the photo tells which; the answer's
``game`` says it; a deck is used for scans of its own game only).

A device teaches the scanner its own cards by uploading one photo of the 18 cards face up in a grid (or
two, in fields ``image`` and ``image2``, for a big table; expansion cards lying beside them named in the
field ``extras``); the answer is the assignment the player should check (each card's place, number and
turn, and the photo with them drawn on it), and PATCH corrects it without the photo. The taught deck is
kept with the device's games (its owner key, :mod:`api.storage.deck_store`) and every later scan sent with
that device token reads with it (:func:`api.web.deps.taught_deck`), until it is removed or taught again.
Teaching is as heavy as a scan, so it shares the scans' upload limits and worker threads.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import anyio
from fastapi import APIRouter, Request, Response

from api.core import ServiceError
from api.web.deps import AdmissionDep, DeckStoreDep, DeviceDep, ScanWorkersDep, SettingsDep
from api.web.scanning import ScannerUnavailable, encode_jpeg
from api.web.uploads import UploadTooLarge, read_upload

__all__ = ["DECK_PATH", "BadDeckRequest", "DeckNotFound", "router"]

DECK_PATH = "/api/v1/deck"
router = APIRouter(prefix=DECK_PATH, tags=["deck"])


# A correction's body (JSON) and the expansion cards' form field are small: bounded before parsing.
MAX_FIX_BYTES = 16_384
MAX_CORRECTIONS = 48


class DeckNotFound(ServiceError):
    code = "deck_not_found"
    status = 404


class BadDeckRequest(ServiceError):
    """A correction body or an ``extras`` field that is not the JSON it should be."""

    code = "invalid_request"
    status = 422


def _corrections(items: object, where: str, *, extras_only: bool = False) -> list[Any]:
    """The corrections in a JSON list (``extras_only``: each must name an expansion card)."""
    from vision.deck import correction_from_json

    if not isinstance(items, list) or len(items) > MAX_CORRECTIONS:
        raise BadDeckRequest(f"{where} must be a list of at most {MAX_CORRECTIONS} corrections")
    out = [correction_from_json(item, f"{where}[{k}]") for k, item in enumerate(items)]
    for k, fix in enumerate(out):
        if extras_only and fix.extra is None:
            raise BadDeckRequest(f"{where}[{k}]: name an expansion card (extra), not a card number")
    return out


def _extras_field(text: str | None) -> list[Any]:
    if not text:
        return []
    try:
        items = json.loads(text)
    except ValueError:
        raise BadDeckRequest("the field 'extras' is not JSON (a list of {photo, row, col, extra})") from None
    return _corrections(items, "extras", extras_only=True)


async def _fix_body(request: Request) -> list[Any]:
    """The PATCH body ``{"corrections": [...]}``, at most :data:`MAX_FIX_BYTES` (the service's body guard
    has bounded it, and checked its JSON's nesting and numbers, before it gets here)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_FIX_BYTES:
        raise UploadTooLarge(f"the request body is larger than {MAX_FIX_BYTES:,} bytes")
    body = await request.body()
    if len(body) > MAX_FIX_BYTES:
        raise UploadTooLarge(f"the request body is larger than {MAX_FIX_BYTES:,} bytes")
    try:
        document = json.loads(body)
    except ValueError:
        raise BadDeckRequest('send the corrections as JSON: {"corrections": [...]}') from None
    if not isinstance(document, dict) or set(document) != {"corrections"}:
        raise BadDeckRequest('send the corrections as JSON: {"corrections": [...]}')
    fixes = _corrections(document["corrections"], "corrections")
    if not fixes:
        raise BadDeckRequest("corrections is empty: name at least one card")
    return fixes


@router.post("", status_code=201)
async def teach(
    request: Request,
    owner: DeviceDep,
    store: DeckStoreDep,
    settings: SettingsDep,
    admission: AdmissionDep,
    workers: ScanWorkersDep,
) -> dict[str, Any]:
    """Teach the scanner this device's deck from a photo of the 18 cards face up in a grid (field
    ``image``; a second photo in ``image2``; expansion cards beside them in ``extras``, a JSON list of
    ``{"photo", "row", "col", "extra"}``; the field ``game``, ``sprawlopolis`` or ``wagons``, names the
    cards' game, else the photo tells). 422 names the cards missing, doubled or unreadable. The answer's
    ``game`` is the deck's, ``overlays`` the photos with the cards drawn (JPEG data URLs, bounded in
    size)."""
    async with admission.of(request) as take:
        limits = {"max_parts": 4, "image_fields": ("image", "image2")}
        form = await read_upload(request, take, max_body_bytes=2 * settings.max_upload_bytes, **limits)
        photos = [form.image, *form.more.values()]
        extras = _extras_field(form.fields.get("extras"))
        game = form.fields.get("game") or None
        del form
        teaching = await workers.run(_teach, photos, extras, game)
        overlays = await workers.run(_overlays, teaching, settings.overlay_long_side)
    cards = [c.to_json() for c in teaching.cards]
    stored = await anyio.to_thread.run_sync(store.put, owner, teaching.deck.to_bytes(), cards)
    seconds = round(teaching.seconds, 2)
    taught = {"game": teaching.deck.game, "grid": teaching.describe(), "seconds": seconds}
    return {**stored.to_json(), **taught, "overlays": overlays}


@router.patch("")
async def fix_deck(
    request: Request, owner: DeviceDep, store: DeckStoreDep, workers: ScanWorkersDep
) -> dict[str, Any]:
    """Correct this device's taught deck: ``{"corrections": [{"photo", "row", "col", "card",
    "rotated"} or {"photo", "row", "col", "extra"}…]}`` (places 0-based, as the cards are listed).
    422 names a place with no card, or a card the corrections leave doubled or missing."""
    fixes = await _fix_body(request)
    stored = await anyio.to_thread.run_sync(store.get, owner)
    if stored is None:
        raise DeckNotFound("this device has no taught deck (POST a photo of the deck to teach one)")
    deck, cards, grid = await workers.run(_relabel, stored.deck, fixes)
    kept = await anyio.to_thread.run_sync(store.put, owner, deck, cards)
    return {**kept.to_json(), "grid": grid}


@router.get("")
def get_deck(owner: DeviceDep, store: DeckStoreDep) -> dict[str, Any]:
    """This device's taught deck: the cards it was taught from and when (404 when it has none)."""
    stored = store.get(owner)
    if stored is None:
        raise DeckNotFound("this device has no taught deck (POST a photo of the deck to teach one)")
    from vision.deck import deck_game

    return {**stored.to_json(), "game": deck_game(stored.deck, "the device's taught deck")}


@router.delete("", status_code=204)
def delete_deck(owner: DeviceDep, store: DeckStoreDep) -> Response:
    """Remove this device's taught deck: its scans read as before it was taught."""
    if not store.delete(owner):
        raise DeckNotFound("this device has no taught deck")
    return Response(status_code=204)


def _teach(photos: list[bytes], extras: list[Any], game: str | None) -> Any:
    try:
        import vision.deck  # noqa: F401  (the scanner is in this build)
    except ImportError as exc:
        raise ScannerUnavailable("the photo scanner is not available in this build") from exc
    from api.core import teach_photos

    names = ["deck photo"] if len(photos) == 1 else [f"deck photo {k + 1}" for k in range(len(photos))]
    return teach_photos(photos, names=names, game=game, extras=extras)


def _overlays(teaching: Any, long_side: int) -> list[str]:
    """Each photo with its cards drawn, as a JPEG data URL (long side at most ``long_side``)."""
    out = []
    for k in range(len(teaching.photos)):
        jpeg = encode_jpeg(teaching.overlay(k, long_side), long_side)
        out.append("data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii"))
    return out


def _relabel(data: bytes, fixes: list[Any]) -> tuple[bytes, list[dict[str, Any]], str]:
    """The stored deck corrected: its file, its cards and their grid."""
    from vision.deck import DeckFixError, card_from_meta, deck_game, describe, load_deck, relabel

    name = "the device's taught deck"
    if deck_game(data, name) != "sprawlopolis":
        raise DeckFixError(f"{name} holds Circle the Wagons cards: they cannot be corrected (teach again)")
    deck = relabel(load_deck(data, name=name), fixes, name=name)
    cards = [card_from_meta(m) for m in deck.seen]
    return deck.to_bytes(), [c.to_json() for c in cards], describe(cards)

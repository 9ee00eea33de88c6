"""The taught-deck endpoints: ``/api/v1/deck`` (teach with POST, look with GET, correct with PATCH,
remove with DELETE), for a Sprawlopolis or a Circle the Wagons deck (the photo tells which; the answer's
``game`` says it; a deck is used for scans of its own game only). A device keeps one deck of each game
side by side: teaching replaces only the deck of the photo's game, every answer lists the decks kept
(``kept``, one per game), and GET, PATCH and DELETE take ``?game=`` to say which deck they mean (without
it: the only deck kept; GET: the one taught last).

A device teaches the scanner its own cards by uploading one photo of the 18 cards face up in a grid (or
two, in fields ``image`` and ``image2``, for a big table; expansion cards lying beside them named in the
field ``extras``); the answer is the assignment the player should check (each card's place, number and
turn, and the photo with them drawn on it), and PATCH corrects it without the photo. The taught deck is
kept with the device's games (its owner key, :mod:`api.storage.deck_store`) and every later scan sent with
that device token reads with the deck of the game it shows (:func:`api.web.deps.taught_deck`), until it
is removed or taught again.
Teaching is as heavy as a scan, so it shares the scans' upload limits and worker threads.
"""

from __future__ import annotations

import base64
from functools import partial
from typing import Any

import anyio
from fastapi import APIRouter, Request, Response

from api.core import ServiceError
from api.web.deps import AdmissionDep, DeckStoreDep, DeviceDep, ScanWorkersDep, SettingsDep
from api.web.scanning import encode_jpeg
from api.web.uploads import UploadTooLarge, read_upload
from games import (
    Game,
    GameOptionError,
    check_deck_extras,
    game_named,
    game_names,
    load_any_deck,
    teach_photos,
)
from scoring.errors import InputError
from scoring.numbers import JSONError, load_json
from vision.deck import card_from_meta, describe

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


def _corrections(items: object, where: str, game: Game) -> list[Any]:
    """The corrections in a JSON list for a deck of ``game``."""
    if not isinstance(items, list) or len(items) > MAX_CORRECTIONS:
        raise BadDeckRequest(f"{where} must be a list of at most {MAX_CORRECTIONS} corrections")
    return [game.deck_fix_from_json(item, f"{where}[{k}]") for k, item in enumerate(items)]


def _extras_field(text: str | None) -> list[tuple[str, object]]:
    """The other cards lying in the deck photo (a JSON list), each with where it is in the field, for the
    deck's game to read (:func:`games.teach_photos`)."""
    if not text:
        return []
    try:
        items = load_json(text)  # nesting and numbers bounded: the body guard does not see form fields
    except JSONError as exc:
        raise BadDeckRequest(f"the field 'extras' is not usable JSON: {exc}") from None
    except ValueError:
        raise BadDeckRequest("the field 'extras' is not JSON (a list of {photo, row, col, extra})") from None
    if not isinstance(items, list) or len(items) > MAX_CORRECTIONS:
        raise BadDeckRequest(f"extras must be a list of at most {MAX_CORRECTIONS} corrections")
    return [(f"extras[{k}]", item) for k, item in enumerate(items)]


async def _fix_body(request: Request) -> list[Any]:
    """The PATCH body's list ``{"corrections": [...]}``, at most :data:`MAX_FIX_BYTES` (the service's body
    guard has bounded it, and checked its JSON's nesting and numbers, before it gets here); each correction
    is read once the deck's game is known (:func:`_corrections`)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_FIX_BYTES:
        raise UploadTooLarge(f"the request body is larger than {MAX_FIX_BYTES:,} bytes")
    body = await request.body()
    if len(body) > MAX_FIX_BYTES:
        raise UploadTooLarge(f"the request body is larger than {MAX_FIX_BYTES:,} bytes")
    try:
        document = load_json(body)
    except JSONError as exc:
        raise BadDeckRequest(f"the body is not usable JSON: {exc}") from None
    except ValueError:
        raise BadDeckRequest('send the corrections as JSON: {"corrections": [...]}') from None
    if not isinstance(document, dict) or set(document) != {"corrections"}:
        raise BadDeckRequest('send the corrections as JSON: {"corrections": [...]}')
    fixes = document["corrections"]
    if not isinstance(fixes, list) or len(fixes) > MAX_CORRECTIONS:
        raise BadDeckRequest(f"corrections must be a list of at most {MAX_CORRECTIONS} corrections")
    if not fixes:
        raise BadDeckRequest("corrections is empty: name at least one card")
    return fixes


def _game(game: str | None) -> str | None:
    if game is None:
        return None
    try:
        return game_named(game).name
    except GameOptionError:
        raise BadDeckRequest(
            f"game: {game[:40]!r} is not a game with a deck ({' or '.join(game_names())})"
        ) from None


def _kept(store: Any, owner: str, game: str | None, *, only: bool) -> Any:
    """The device's deck of ``game``; without a game, the one it keeps (``only``: refused when it keeps
    both, naming the field to choose with), else the one taught last. 404 when there is none."""
    if game is not None:
        stored = store.get(owner, game)
        if stored is None:
            raise DeckNotFound(
                f"this device keeps no {game_named(game).title} deck (POST a photo of the deck to teach one)"
            )
        return stored
    kept = store.kept(owner)
    if not kept:
        raise DeckNotFound("this device has no taught deck (POST a photo of the deck to teach one)")
    if only and len(kept) > 1:
        titles = " and ".join(f"a {game_named(d.game).title}" for d in kept)
        choices = " or ".join(f"?game={d.game}" for d in kept)
        raise BadDeckRequest(f"game: this device keeps {titles} deck; say which ({choices})")
    return kept[0]


def _answer(stored: Any, store: Any, owner: str) -> dict[str, Any]:
    """A deck's answer: its cards, game and time, and the decks the device keeps (one line per game)."""
    return {**stored.to_json(), "kept": [d.summary() for d in store.kept(owner)]}


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
    size), ``ask`` the one card to ask the player about when the cards' look names the zones only up to
    one cycle (``photo``, ``row``, ``col`` 0-based, ``taken`` what it was taken for, ``text``; a correction
    of it by PATCH names every card), else null."""
    async with admission.of(request) as take:
        limits = {"max_parts": 4, "image_fields": ("image", "image2")}
        form = await read_upload(request, take, max_body_bytes=2 * settings.max_upload_bytes, **limits)
        photos = [form.image, *form.more.values()]
        extras = _extras_field(form.fields.get("extras"))
        game = form.fields.get("game") or None
        try:
            check_deck_extras(_game(game), extras)
        except InputError as exc:  # refused before the photos are read
            raise BadDeckRequest(str(exc)) from None
        del form
        teaching = await workers.run(_teach, photos, extras, game)
        overlays = await workers.run(_overlays, teaching, settings.overlay_long_side)
    cards = [c.to_json() for c in teaching.cards]
    game = teaching.deck.game
    stored = await anyio.to_thread.run_sync(store.put, owner, teaching.deck.to_bytes(), cards, game)
    answer = await anyio.to_thread.run_sync(_answer, stored, store, owner)
    ask = teaching.ask.to_json() if teaching.ask is not None else None
    taught = {"grid": teaching.describe(), "seconds": round(teaching.seconds, 2), "ask": ask}
    return {**answer, **taught, "overlays": overlays}


@router.patch("")
async def fix_deck(
    request: Request, owner: DeviceDep, store: DeckStoreDep, workers: ScanWorkersDep, game: str | None = None
) -> dict[str, Any]:
    """Correct this device's taught deck of ``game`` (without it: the only deck it keeps): ``{"corrections":
    [{"photo", "row", "col", "card", "rotated"} or {"photo", "row", "col", "extra"}…]}`` (places 0-based,
    as the cards are listed; a Circle the Wagons deck's cards are 0–17, ``"card": null`` for not a card).
    422 names a place with no card, or a card the corrections leave doubled or missing."""
    items = await _fix_body(request)
    stored = await anyio.to_thread.run_sync(partial(_kept, store, owner, _game(game), only=True))
    fixes = _corrections(items, "corrections", game_named(stored.game))
    deck, cards, grid = await workers.run(_relabel, stored.deck, fixes)
    kept = await anyio.to_thread.run_sync(store.put, owner, deck, cards, stored.game)
    return {**await anyio.to_thread.run_sync(_answer, kept, store, owner), "grid": grid}


@router.get("")
def get_deck(owner: DeviceDep, store: DeckStoreDep, game: str | None = None) -> dict[str, Any]:
    """This device's taught deck of ``game`` (without it: the one taught last): the cards it was taught
    from and when, and ``kept``, every deck the device keeps (404 when it has none)."""
    return _answer(_kept(store, owner, _game(game), only=False), store, owner)


@router.delete("", status_code=204)
def delete_deck(owner: DeviceDep, store: DeckStoreDep, game: str | None = None) -> Response:
    """Remove this device's taught deck of ``game`` (without it: the only deck it keeps); the other game's
    deck stays, and scans of this game read as before it was taught."""
    stored = _kept(store, owner, _game(game), only=True)
    store.delete(owner, stored.game)
    return Response(status_code=204)


def _teach(photos: list[bytes], extras: list[tuple[str, object]], game: str | None) -> Any:
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
    """The stored deck corrected by its game's rules: its file, its cards and their grid."""
    name = "the device's taught deck"
    deck = load_any_deck(data, name)
    deck = game_named(deck.game).relabel_deck(deck, fixes, name)
    cards = [card_from_meta(m) for m in deck.seen]
    return deck.to_bytes(), [c.to_json() for c in cards], describe(cards)

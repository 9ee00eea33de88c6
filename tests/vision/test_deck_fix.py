"""Teach your deck, confirm and correct: the assignment drawn on the deck photo, corrections made from the
deck file alone (CLI ``deck fix``, service ``PATCH /api/v1/deck``), and an expansion card (Wrecktar) named
in the deck photo and read with the taught deck. All on rendered decks of our own look-alike art.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Iterator

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from models.synth.deck import city_photo, city_truth, deck_art, deck_photo, png
from tests.conftest import assert_error
from tests.evaluate import compare_cities
from vision.deck.corrections import Correction, relabel
from vision.deck.draw import draw_deck_overlay
from vision.deck.taught import DeckError, DeckFileError, DeckFixError, load_deck
from vision.deck.teach import teach_deck
from vision.photo.decode import fit_long_side
from vision.pipeline import scan_image

pytestmark = pytest.mark.slow

_rng = np.random.default_rng(21)
DECK = [(int(n), bool(_rng.random() < 0.5)) for n in _rng.permutation(np.arange(1, 19))]
PPM = 3.0
LAID = {"gap_mm": 8.0, "jitter_mm": 2.0, "turn_deg": 12.0}
WRECKTAR_AT = Correction(0, 3, 0, extra="wrecktar")  # row 4, card 1: after the 18 in rows of six


@pytest.fixture(scope="module")
def art() -> dict:
    art = deck_art(9, PPM)
    # A Wrecktar unlike the stand-in the classifier learned (its real look is not known to us): our
    # stand-in's negative, which the shipped classifier reads as no card at all.
    art["wrecktar"] = (255 - art["wrecktar"]).astype(np.uint8)
    return art


@pytest.fixture(scope="module")
def deck_png(art) -> bytes:
    return png(deck_photo(art, DECK, ppm=PPM, **LAID))


@pytest.fixture(scope="module")
def taught(deck_png):
    return teach_deck(deck_png)


@pytest.fixture(scope="module")
def with_wrecktar_png(art) -> bytes:
    return png(deck_photo(art, [*DECK, ("wrecktar", False)], ppm=PPM, **LAID))


@pytest.fixture(scope="module")
def city_png(art) -> bytes:
    return png(city_photo(art, DECK[:10], ppm=PPM))


def _card_at(taught, row: int, col: int):  # type: ignore[no-untyped-def]
    return next(c for c in taught.cards if (c.row, c.col) == (row, col))


# ---- the overlay ----------------------------------------------------------------------------------------


def test_the_overlay_outlines_and_labels_each_card_where_it_lies(taught) -> None:
    overlay = taught.overlay(0, long_side=900)
    plain, _ = fit_long_side(taught.photos[0], 900)
    assert max(overlay.shape[:2]) == 900 and overlay.shape == plain.shape
    size = np.array(overlay.shape[1::-1], float)
    changed = np.abs(overlay.astype(int) - plain.astype(int)).sum(axis=2) > 60
    inside = np.zeros(changed.shape, np.uint8)
    for card in taught.cards:
        poly = (np.array(card.outline) * size).round().astype(np.int32)
        cv2.fillPoly(inside, [poly], 1)
        # Its outline is drawn along its edge, its label at its centre.
        edge = ((poly[0] + poly[1]) / 2).astype(int)
        assert changed[edge[1] - 3 : edge[1] + 4, edge[0] - 3 : edge[0] + 4].any(), card
        centre = poly.mean(axis=0).astype(int)
        assert changed[centre[1] - 6 : centre[1] + 7, centre[0] - 12 : centre[0] + 13].sum() > 20, card
    grown = cv2.dilate(inside, np.ones((15, 15), np.uint8))
    assert not changed[grown == 0].any()  # nothing drawn on the table
    # Each card's label is its own: relabelling one card changes the picture inside that card only.
    first = taught.cards[0]
    other = [
        c if c is not first else type(c)(**{**c.__dict__, "card": 18 if c.card != 18 else 1})
        for c in taught.cards
    ]
    moved = (
        np.abs(draw_deck_overlay(taught.photos[0], other, long_side=900).astype(int) - overlay).sum(axis=2)
        > 0
    )
    mask = np.zeros(changed.shape, np.uint8)
    cv2.fillPoly(mask, [(np.array(first.outline) * size).round().astype(np.int32)], 1)
    assert moved.any() and not moved[mask == 0].any()


# ---- corrections -----------------------------------------------------------------------------------------


def test_a_correction_moves_the_prototypes_to_the_named_card(taught, city_png) -> None:
    a, b = taught.cards[0], taught.cards[7]
    # A deck taught wrong (cards a and b taken for each other), then corrected back.
    wrong = relabel(
        load_deck(taught.deck.to_bytes()),
        [Correction(0, a.row, a.col, b.card, b.rotated), Correction(0, b.row, b.col, a.card, a.rotated)],
    )
    ka, kb = 4 * (a.card - 1), 4 * (b.card - 1)
    assert not np.allclose(wrong.prototypes[ka : ka + 4], taught.deck.prototypes[ka : ka + 4], atol=0.05)
    fixed = relabel(
        load_deck(wrong.to_bytes()),
        [Correction(0, a.row, a.col, a.card, a.rotated), Correction(0, b.row, b.col, b.card, b.rotated)],
    )
    assert np.allclose(fixed.prototypes, taught.deck.prototypes, atol=2e-3)
    assert fixed.calibration == pytest.approx(taught.deck.calibration, rel=1e-3)
    # Said to lie the other way round, a card's prototypes are its blocks turned (TL ↔ BR, upside down).
    turned = relabel(taught.deck, [Correction(0, a.row, a.col, a.card, not a.rotated)])
    assert np.allclose(
        turned.prototypes[ka : ka + 4], taught.deck.prototypes[ka : ka + 4][::-1, :, ::-1, ::-1], atol=2e-3
    )
    assert np.allclose(turned.prototypes[kb : kb + 4], taught.deck.prototypes[kb : kb + 4])
    # A scan with the corrected deck reads the city and names its cards right.
    read = scan_image(city_png, cards=[n for n, _ in DECK[15:]], deck=fixed)
    assert compare_cities(city_truth(DECK[:10]), read.city).exact
    assert sorted(p["card"] for p in read.placements) == sorted(n for n, _ in DECK[:10])


def test_a_correction_that_doubles_a_card_is_refused_naming_it(taught) -> None:
    a, b = taught.cards[0], taught.cards[1]
    with pytest.raises(
        DeckFixError,
        match=rf"card {b.card} would lie twice \(row 1 card 1, row 1 card 2\).*missing: card {a.card}\b",
    ):
        relabel(taught.deck, [Correction(0, a.row, a.col, b.card)])
    with pytest.raises(DeckFixError, match="no card at row 9 card 1"):
        relabel(taught.deck, [Correction(0, 8, 0, 3)])


def test_a_version_1_deck_is_read_but_cannot_be_corrected(taught) -> None:
    out = io.BytesIO()
    meta = {"format": "sprawlscan-deck", "version": 1, "cards": list(range(1, 19)), "shape": [72, 3, 17, 26]}
    meta["calibration"] = list(taught.deck.calibration)
    np.savez(out, meta=np.array(json.dumps(meta)), prototypes=taught.deck.prototypes.astype(np.float16))
    old = load_deck(out.getvalue(), name="old.deck")
    assert np.allclose(old.prototypes, taught.deck.prototypes, atol=1e-2) and not old.seen
    with pytest.raises(
        DeckFixError, match="old.deck: taught before corrections were kept .*teach the deck again"
    ):
        relabel(old, [Correction(0, 0, 0, 1)], name="old.deck")


def test_a_damaged_list_of_cards_found_is_named(taught) -> None:
    data = np.load(io.BytesIO(taught.deck.to_bytes()))
    meta = json.loads(str(data["meta"]))
    for damage, words in (
        ({"card": 19}, "card 1 found: card 19"),
        ({"read": ["R:EW", "P", "Q", "."]}, "card 1 found: labels"),
        ({"outline": [[0, 0]]}, "card 1 found: outline"),
    ):
        seen = [{**meta["seen"][0], **damage}, *meta["seen"][1:]]
        out = io.BytesIO()
        np.savez(
            out,
            meta=np.array(json.dumps({**meta, "seen": seen})),
            prototypes=data["prototypes"],
            patches=data["patches"],
        )
        with pytest.raises(DeckFileError, match=f"my.deck: damaged taught deck \\({words}"):
            load_deck(out.getvalue(), name="my.deck")
    out = io.BytesIO()
    np.savez(out, meta=np.array(json.dumps(meta)), prototypes=data["prototypes"], patches=data["patches"][:8])
    with pytest.raises(DeckFileError, match="damaged taught deck \\(patches"):
        load_deck(out.getvalue())


def test_the_command_line_draws_the_overlay_and_fixes_a_deck(deck_png, tmp_path, capsys) -> None:
    from api.cli import main

    photo, out, picture = tmp_path / "deck.png", tmp_path / "mine.deck", tmp_path / "cards.png"
    photo.write_bytes(deck_png)
    assert main(["teach", str(photo), "--out", str(out), "--overlay", str(picture), "--format", "json"]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    drawn = cv2.imread(str(picture))
    assert drawn is not None and max(drawn.shape[:2]) <= 1400
    a, b = cards[0], cards[1]
    swap = [f"1,1={b['card']}{'r' * b['rotated']}", f"1,2={a['card']}{'r' * a['rotated']}"]
    assert main(["deck", "fix", str(out), *swap]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].split()[:2] == [swap[0].split("=")[1], swap[1].split("=")[1]]
    assert main(["deck", "show", str(out), "--format", "json"]) == 0
    shown = {(c["row"], c["col"]): c["card"] for c in json.loads(capsys.readouterr().out)["cards"]}
    assert (shown[(0, 0)], shown[(0, 1)]) == (b["card"], a["card"])
    before = out.read_bytes()
    assert main(["deck", "fix", str(out), f"1,1={a['card']}"]) == 2  # card a twice now
    assert f"card {a['card']} would lie twice" in capsys.readouterr().err
    assert out.read_bytes() == before  # a refused correction leaves the file as it was
    for bad, words in (
        ("1,1=19", "not a card"),
        ("x=3", "ROW,COL=CARD"),
        ("9,9=3", "no card at row 9 card 9"),
    ):
        assert main(["deck", "fix", str(out), bad]) == 2
        assert words in capsys.readouterr().err, bad
    assert main(["teach", str(photo), "--out", str(tmp_path / "x.deck"), "--extra", "1,1=7"]) == 2
    assert "name an expansion card" in capsys.readouterr().err


# ---- an expansion card named in the deck photo ------------------------------------------------------------


def test_an_unnamed_card_beside_the_18_is_still_refused_naming_its_place(with_wrecktar_png) -> None:
    with pytest.raises(
        DeckError, match=r"19 cards found, more than the 18 of a deck \(extra at row 4 card 1\)"
    ):
        teach_deck(with_wrecktar_png)
    with pytest.raises(DeckError, match="no card at row 5 card 1 to name"):
        teach_deck(with_wrecktar_png, extras=[Correction(0, 4, 0, extra="wrecktar")])


def test_a_named_wrecktar_is_taught_and_read_as_wrecktar(art, with_wrecktar_png) -> None:
    teaching = teach_deck(with_wrecktar_png, extras=[WRECKTAR_AT])
    assert sorted(c.card for c in teaching.cards if c.extra is None) == list(range(1, 19))
    assert [(c.row, c.col, c.extra) for c in teaching.cards if c.extra] == [(3, 0, "wrecktar")]
    assert teaching.deck.extra_labels == (("W", None, ""),) * 4
    again = load_deck(teaching.deck.to_bytes())
    assert again.extra_labels == teaching.deck.extra_labels
    assert np.allclose(again.extras, teaching.deck.extras, atol=2e-3)
    cards: list[tuple[int | str, bool]] = list(DECK[:10])
    cards[6] = ("wrecktar", False)  # Wrecktar over the seventh card
    photo = png(city_photo(art, cards, ppm=PPM))
    truth = city_truth(cards)
    given = [n for n, _ in DECK[15:]]
    plain = scan_image(photo, cards=given)
    with_deck = scan_image(photo, cards=given, deck=again)

    def wrecktar_cells(city: object) -> int:
        return sum(cell.kind == "wrecktar" for _, _, cell in city.cells())  # type: ignore[attr-defined]

    assert wrecktar_cells(with_deck.city) >= wrecktar_cells(plain.city)
    assert wrecktar_cells(with_deck.city) == 4
    assert compare_cities(truth, with_deck.city).right >= compare_cities(truth, plain.city).right


# ---- the service ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    from api.web import Settings, create_app

    db = tmp_path_factory.mktemp("decks") / "decks.db"
    settings = Settings(database_path=str(db), max_upload_bytes=4_000_000, overlay_long_side=1000)
    with TestClient(create_app(settings)) as c:
        yield c


def _device(client: TestClient) -> dict[str, str]:
    return {"Authorization": f"Bearer {client.post('/api/v1/devices').json()['device_token']}"}


def test_the_service_names_an_expansion_card_draws_and_corrects_the_deck(client, with_wrecktar_png) -> None:
    auth = _device(client)
    photo = {"image": ("deck.png", with_wrecktar_png, "image/png")}
    assert_error(
        client.post("/api/v1/deck", files=photo, headers=auth), 422, "bad_deck_photo", "extra at row 4 card 1"
    )
    extras = json.dumps([{"photo": 0, "row": 3, "col": 0, "extra": "wrecktar"}])
    resp = client.post("/api/v1/deck", files=photo, data={"extras": extras}, headers=auth)
    assert resp.status_code == 201, resp.text
    body = resp.json()
    assert [c for c in body["cards"] if c["extra"]][0]["row"] == 3
    assert len(body["overlays"]) == 1 and body["overlays"][0].startswith("data:image/jpeg;base64,")
    jpeg = base64.b64decode(body["overlays"][0].split(",", 1)[1])
    picture = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert max(picture.shape[:2]) <= 1000 and len(jpeg) < 1_000_000
    assert all(len(c["outline"]) == 4 for c in body["cards"])
    a, b = body["cards"][0], body["cards"][1]
    swap = {
        "corrections": [
            {"row": a["row"], "col": a["col"], "card": b["card"], "rotated": b["rotated"]},
            {"photo": 0, "row": b["row"], "col": b["col"], "card": a["card"], "rotated": a["rotated"]},
        ]
    }
    fixed = client.patch("/api/v1/deck", json=swap, headers=auth)
    assert fixed.status_code == 200, fixed.text
    place = {(c["row"], c["col"]): c for c in fixed.json()["cards"]}
    assert place[(0, 0)]["card"] == b["card"] and place[(0, 1)]["card"] == a["card"]
    assert client.get("/api/v1/deck", headers=auth).json()["cards"] == fixed.json()["cards"]
    # Refused corrections leave the deck as it was.
    double = {"corrections": [{"row": 0, "col": 0, "card": a["card"]}]}
    assert_error(
        client.patch("/api/v1/deck", json=double, headers=auth),
        422,
        "bad_deck_fix",
        f"card {a['card']} would lie twice",
    )
    for bad, status, code, words in (
        ({"corrections": [{"row": 9, "col": 0, "card": 2}]}, 422, "bad_deck_fix", "no card at row 10 card 1"),
        ({"corrections": [{"row": 0, "col": 0, "card": 19}]}, 422, "bad_deck_fix", "not one of the cards"),
        ({"corrections": [{"row": 0, "col": 0, "extra": "dragon"}]}, 422, "bad_deck_fix", "dragon"),
        ({"corrections": []}, 422, "invalid_request", "at least one"),
        ({"fixes": []}, 422, "invalid_request", "corrections"),
    ):
        assert_error(client.patch("/api/v1/deck", json=bad, headers=auth), status, code, words)
    assert_error(client.patch("/api/v1/deck", content=b"{nope", headers=auth), 422, "invalid_request", "JSON")
    big = b'{"corrections": [' + b" " * 20_000 + b"]}"
    assert_error(client.patch("/api/v1/deck", content=big, headers=auth), 413, "too_large")
    # The service's body guard sees a correction body too: JSON nested too deep for the parser is a 422.
    deep = b'{"corrections": ' + b"[" * 6_000 + b"]" * 6_000 + b"}"
    assert_error(client.patch("/api/v1/deck", content=deep, headers=auth), 422, "invalid_request", "JSON")
    assert client.get("/api/v1/deck", headers=auth).json()["cards"] == fixed.json()["cards"]
    assert_error(client.patch("/api/v1/deck", json=swap), 401, "device_token_required")
    assert_error(client.patch("/api/v1/deck", json=swap, headers=_device(client)), 404, "deck_not_found")
    bad_extras = {"extras": json.dumps([{"row": 3, "col": 0, "card": 4}])}
    assert_error(
        client.post("/api/v1/deck", files=photo, data=bad_extras, headers=auth),
        422,
        "invalid_request",
        "expansion card",
    )
    assert_error(
        client.post("/api/v1/deck", files=photo, data={"extras": "[{"}, headers=auth),
        422,
        "invalid_request",
        "not JSON",
    )


def test_taught_expansion_evidence_raises_wrecktar_and_sets_a_mark() -> None:
    from vision.cells.reading import CellReading
    from vision.deck.use import reweighted, template_labels

    dist = {("R", "EW"): 0.6, ("P", None): 0.3, ("W", None): 0.05, (None, None): 0.05}
    pred = CellReading("R", "EW", 0.6, "R:EW", (("R", "EW", 0.6), ("P", None, 0.3)), distribution=dist)
    chance = dict.fromkeys(template_labels(), -2.0)
    # Without a taught Wrecktar the block stays; a cell very like the taught Wrecktar becomes Wrecktar.
    assert reweighted(pred, chance).label == "R:EW"
    like_wrecktar = reweighted(pred, {**chance, ("W", None): 5.0})
    assert (like_wrecktar.kind, like_wrecktar.label) == ("wrecktar", "W")
    assert like_wrecktar.distribution[(None, None)] < dist[(None, None)]
    # Evidence against the taught Wrecktar changes nothing the classifier read.
    unlike = reweighted(pred, {**chance, ("W", None): -5.0})
    assert unlike.label == "R:EW" and unlike.distribution == pytest.approx(
        reweighted(pred, chance).distribution
    )
    # The best match a taught Point of Interest block: the cell carries its mark (and only then).
    like_poi = reweighted(pred, {**chance, ("R", "EW"): 5.0}, mark="poi")
    assert (like_poi.label, like_poi.poi, like_poi.construction) == ("R:EW*", True, False)
    assert reweighted(pred, {**chance, ("R", "EW"): 5.0}, mark="construction").label == "R:EW!"
    assert reweighted(pred, {**chance, ("R", "EW"): 5.0}).label == "R:EW"


def test_a_named_point_of_interest_card_teaches_its_marked_block(art) -> None:
    from models.synth.art import render_city_card
    from scoring.city import block

    blocks = ((block("R", "EW", poi=True), block("P")), (block("C", "NS"), block("I", "EW")))
    cards = {**art, "poi": render_city_card(blocks, np.random.default_rng([9, 200]), PPM).rgb}
    photo = png(deck_photo(cards, [*DECK, ("poi", False)], ppm=PPM, **LAID))
    teaching = teach_deck(photo, extras=[Correction(0, 3, 0, extra="poi")])
    assert teaching.deck.extra_labels == (
        ("R", "EW", "poi"),
        ("P", None, ""),
        ("C", "NS", ""),
        ("I", "EW", ""),
    )
    city_cards: list[tuple[int | str, bool]] = list(DECK[:10])
    city_cards[3] = ("poi", True)  # the Point of Interest card, turned round, fourth in the first row
    city = png(city_photo(cards, city_cards, ppm=PPM))
    given = [n for n, _ in DECK[15:]]
    for deck in (None, teaching.deck):
        read = scan_image(city, cards=given, deck=deck).city
        # Turned round, its marked block lies bottom right of the card: row 2, column 8.
        assert read.cell(1, 7).token() == "R:EW*", deck

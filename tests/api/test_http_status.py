"""The HTTP status of every error is decided in api/: the engine's and the scanner's errors carry none."""

from __future__ import annotations

import pytest

from api.core.saved_games import DeviceTokenRequired, GameNotFound, TooManyGames
from api.web.error_handlers import ENGINE_STATUS, ScanNotFound, http_status
from api.web.guards import RequestTimeout
from api.web.uploads import UploadTooLarge
from scoring.city import CityFormatError
from scoring.errors import InputError
from vision.lattice.locate import NoCityFound
from vision.photo.decode import (
    ImageError,
    ImageTooLarge,
    ImageTooSmall,
    NotAnImage,
    TruncatedImage,
    UnsupportedImage,
)


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (NotAnImage("x"), 415),
        (UnsupportedImage("x"), 415),
        (ImageTooLarge("x"), 413),
        (NoCityFound("x"), 422),
        (ImageTooSmall("x"), 400),
        (TruncatedImage("x"), 400),
        (ImageError("x"), 400),
        (CityFormatError("bad", 1, 2), 400),
        (InputError("x"), 400),
        (ScanNotFound("x"), 404),
        (DeviceTokenRequired("x"), 401),
        (GameNotFound("x"), 404),
        (TooManyGames("x"), 409),
        (RequestTimeout("x"), 408),
        (UploadTooLarge("x"), 413),
    ],
)
def test_each_error_gets_its_status(error: InputError, status: int) -> None:
    assert http_status(error) == status


def test_a_subclass_of_a_listed_error_gets_its_status() -> None:
    class HugeImage(ImageTooLarge):
        pass

    assert http_status(HugeImage("x")) == 413


def test_no_engine_or_scanner_error_class_carries_a_status() -> None:
    import scoring.errors
    import vision.lattice.locate
    import vision.photo.decode

    for module in (scoring.errors, vision.photo.decode, vision.lattice.locate):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, InputError):
                assert "status" not in vars(value), value
    assert all(400 <= s < 500 for s in ENGINE_STATUS.values())

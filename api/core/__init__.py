"""What the command line and the web service both do, free of HTTP and of argparse.

``scoring``        a typed grid scored, a hand tally checked (``/score``, ``/check``, saved games), by its
                   game (:mod:`games`, where a photo is read and scored too: :func:`games.scan_photo`);
``saved_games``    device tokens, what a saved game holds, the export format;
``schemas``        the JSON requests and answers (pydantic); ``errors``: the service's own bad-input base;
``installed``      the installed version.
"""

from __future__ import annotations

from api.core.errors import ServiceError
from api.core.installed import version
from api.core.saved_games import (
    MAX_IMPORT_CELLS,
    MAX_IMPORT_GAMES,
    BadImport,
    DeviceTokenRequired,
    DeviceTokenUnknown,
    GameIn,
    GameNotFound,
    GamePatch,
    ImportTooLarge,
    TooManyGames,
    export_document,
    import_records,
    new_device_token,
    owner_of,
    owner_of_token,
    scored_record,
)
from api.core.schemas import (
    ERROR_RESPONSES,
    BreakdownOut,
    CheckOut,
    CheckRequest,
    CityRequest,
    Health,
    ScanOut,
    ScoreRequest,
)
from api.core.scoring import breakdown_of, check_request, given_choices, score_request

__all__ = [
    "ERROR_RESPONSES",
    "MAX_IMPORT_CELLS",
    "MAX_IMPORT_GAMES",
    "BadImport",
    "BreakdownOut",
    "CheckOut",
    "CheckRequest",
    "CityRequest",
    "DeviceTokenRequired",
    "DeviceTokenUnknown",
    "GameIn",
    "GameNotFound",
    "GamePatch",
    "ImportTooLarge",
    "Health",
    "ScanOut",
    "ScoreRequest",
    "ServiceError",
    "TooManyGames",
    "breakdown_of",
    "check_request",
    "given_choices",
    "export_document",
    "import_records",
    "new_device_token",
    "owner_of",
    "owner_of_token",
    "score_request",
    "scored_record",
    "version",
]

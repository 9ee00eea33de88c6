"""What the command line and the web service both do, free of HTTP and of argparse.

``scan_score``     the one path from a scanned photo and the player's choices to a score (CLI and service);
``town_scan``      which game a photo shows, and a Circle the Wagons town read from it and scored;
``decks``          taught decks of either game: taught from a photo, read from a file, used for their game;
``score_options``  the player's choices (cards, expansions, variant, options), read and checked early;
``scoring``        a typed city or rows scored, a hand tally checked (``/score``, ``/check``, saved games);
``saved_games``    device tokens, what a saved game holds, the export format;
``schemas``        the JSON requests and answers (pydantic); ``wagons_request``: the same for a town;
``flags``          the engine's advice in command-line flags; ``errors``: the service's own bad-input base;
``installed``      the installed version.
"""

from __future__ import annotations

from api.core.decks import (
    DeckGameError,
    deck_for,
    deck_games,
    deck_not_used,
    load_any_deck,
    teach_photos,
)
from api.core.errors import ServiceError
from api.core.flags import breakdown_in_flag_words, flag_words
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
from api.core.scan_score import ScoredScan, photo_notes, score_scan
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
from api.core.score_options import BadFormField, ScoreOptions
from api.core.scoring import breakdown_of, check_request, city_of, score_request
from api.core.town_scan import (
    GAMES,
    NO_GOALS_NOTE,
    GameOptionError,
    PhotoRequest,
    ScoredTown,
    read_photo,
    score_town_scan,
)

__all__ = [
    "DeckGameError",
    "deck_for",
    "deck_games",
    "deck_not_used",
    "load_any_deck",
    "teach_photos",
    "GAMES",
    "NO_GOALS_NOTE",
    "GameOptionError",
    "PhotoRequest",
    "ScoredTown",
    "read_photo",
    "score_town_scan",
    "ERROR_RESPONSES",
    "MAX_IMPORT_CELLS",
    "MAX_IMPORT_GAMES",
    "BadFormField",
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
    "ScoreOptions",
    "ScoreRequest",
    "ScoredScan",
    "ServiceError",
    "TooManyGames",
    "breakdown_in_flag_words",
    "breakdown_of",
    "check_request",
    "city_of",
    "export_document",
    "flag_words",
    "import_records",
    "new_device_token",
    "owner_of",
    "owner_of_token",
    "photo_notes",
    "score_request",
    "score_scan",
    "scored_record",
    "version",
]

"""Bad-input errors of the Circle the Wagons scorer; each is an :class:`~scoring.errors.InputError`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from scoring.errors import InputError


class UnknownNameError(InputError):
    """A goal card, scenario or option name that does not exist; the message lists the valid ones."""

    code = "unknown_name"


class PileError(InputError):
    """An opponent pile that cannot be used: a card that does not exist, a repeated card, a bad count."""

    code = "bad_pile"


class MissingInputError(InputError):
    """A value the rules need but that only the player can supply (e.g. the opponent's town for a
    two-town card)."""

    code = "missing_input"


class OptionError(InputError):
    """An option (``--option KEY=VALUE``) whose value is not usable."""

    code = "bad_option"


class ConflictError(InputError):
    """Inputs that contradict each other (goal cards that are not the scenario's, a town and a pile…)."""

    code = "conflicting_input"


def name_key(name: str) -> str:
    """Normalise a name for lookup: case, spaces, dashes, underscores and apostrophes do not matter,
    nor does a leading "the".

    >>> name_key("The Clearing"), name_key("cool_water"), name_key("Trouble's  Comin'")
    ('clearing', 'cool-water', 'troubles-comin')
    """
    key = re.sub(r"['’`]", "", name.strip().lower())
    key = re.sub(r"[\s_\-]+", "-", key).strip("-")
    return key.removeprefix("the-")


def resolve_name(
    name: str, what: str, known: Mapping[str, str], aliases: Mapping[str, str] | None = None
) -> str:
    """Return the id in ``known`` (id → display name) that ``name`` spells, or raise UnknownNameError.

    ``aliases`` maps extra normalised spellings (e.g. the card's own misprint "Prarie Life") to ids.
    """
    wanted = name_key(name)
    for ident in known:
        if name_key(ident) == wanted:
            return ident
    if aliases and wanted in aliases:
        return aliases[wanted]
    raise UnknownNameError(f"unknown {what} {name!r}; expected one of: {', '.join(known)}")


def split_names(value: str) -> list[str]:
    """Split a header value into names: at commas when there are any (so names may hold spaces),
    otherwise at whitespace (names written with dashes, e.g. ``cool-water badlands``)."""
    parts: Iterable[str] = value.split(",") if "," in value else value.split()
    return [p.strip() for p in parts if p.strip()]

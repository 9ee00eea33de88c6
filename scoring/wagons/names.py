"""Names of goal cards, scenarios and options as players type them: case, spaces and dashes do not matter."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping

from scoring.wagons.errors import UnknownNameError


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

    Examples
    --------
    >>> resolve_name("Cool Water", "goal card", {"cool-water": "Cool Water"})
    'cool-water'
    """
    wanted = name_key(name)
    for ident in known:
        if name_key(ident) == wanted:
            return ident
    if aliases and wanted in aliases:
        return aliases[wanted]
    close = difflib.get_close_matches(wanted, [name_key(k) for k in known], n=1)
    hint = next((f" (did you mean {k!r}?)" for k in known if close and name_key(k) == close[0]), "")
    raise UnknownNameError(f"unknown {what} {name!r}{hint}; expected one of: {', '.join(known)}")


def split_names(value: str) -> list[str]:
    """Split a header value into names: at commas when there are any (so names may hold spaces),
    otherwise at whitespace (names written with dashes, e.g. ``cool-water badlands``).

    Examples
    --------
    >>> split_names("cool water, badlands"), split_names("cool-water badlands")
    (['cool water', 'badlands'], ['cool-water', 'badlands'])
    """
    parts: Iterable[str] = value.split(",") if "," in value else value.split()
    return [p.strip() for p in parts if p.strip()]

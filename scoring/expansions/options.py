"""Expansion names and options as a user writes them: from the ``options`` mapping or the city's headers."""

from __future__ import annotations

from collections.abc import Mapping

from scoring.city import City
from scoring.expansions.errors import ExpansionOptionError
from scoring.numbers import NumberError, whole_number

Options = Mapping[str, str] | None


def norm_name(name: str) -> str:
    """Lower-case a user-written name, word breaks as ``-``: ``"Lookout Point"`` → ``"lookout-point"``.

    Examples
    --------
    >>> norm_name(" Lookout_Point "), norm_name("Fungus Among Us")
    ('lookout-point', 'fungus-among-us')
    """
    return "-".join(name.strip().lower().replace("_", " ").replace("'", "").split())


def option(city: City, options: Options, key: str) -> str | None:
    """The value of expansion option ``key``: from ``options`` first, else from the city's header lines.

    Examples
    --------
    >>> from scoring.city_text import parse_city
    >>> city = parse_city("construction-penalty: 2\\nR\\n")
    >>> option(city, None, "construction-penalty")
    '2'
    >>> option(city, {"Construction Penalty": "3"}, "construction-penalty")
    '3'
    """
    if options:
        for k, v in options.items():
            if norm_name(k) == key:
                return str(v).strip()
    value = city.header(key)
    return None if value is None else value.strip()


def int_option(city: City, options: Options, key: str, *, minimum: int | None = None) -> int | None:
    """An option holding a whole number, ``None`` when absent; raise :class:`ExpansionOptionError` if bad.

    Examples
    --------
    >>> from scoring.city_text import parse_city
    >>> int_option(parse_city("roadwork-unplayed: 2\\nR\\n"), None, "roadwork-unplayed")
    2
    """
    value = option(city, options, key)
    if value is None or value == "":
        return None
    try:
        return whole_number(value, lo=-999 if minimum is None else minimum, hi=999)
    except NumberError as exc:
        raise ExpansionOptionError(f"option {key}: {exc}") from None

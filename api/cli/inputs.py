"""What the command line reads: files or standard input within a size limit, photos told from text by their
first bytes, ``--option KEY=VALUE`` pairs and tally files. Errors name the file they are about."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from scoring.errors import InputError
from scoring.tally import TallyLine, parse_tally

if TYPE_CHECKING:
    pass

_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif"}


def is_photo(data: bytes) -> bool:
    """True when ``data`` starts like a JPEG, PNG, WebP or HEIC/HEIF image (by magic bytes, not file name)."""
    return (
        data.startswith(b"\xff\xd8\xff")
        or data.startswith(b"\x89PNG\r\n\x1a\n")
        or (data[:4] == b"RIFF" and data[8:12] == b"WEBP")
        or (data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS)
    )


MAX_INPUT_BYTES = 40 * 1024 * 1024  # the largest photo the scanner accepts
MAX_TEXT_BYTES = 1_000_000  # a city, town or tally file is a few kilobytes

# Standard input read once and kept: the game is detected from it before the scorer reads it again.
_stdin_read: tuple[object, bytes] | None = None


def read_input(path: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of file ``path`` (``-``: standard input), at most ``limit`` of them (else
    :class:`InputError`, before reading further); ``OSError`` for an unreadable file."""
    global _stdin_read
    if path == "-":
        if _stdin_read is None or _stdin_read[0] is not sys.stdin.buffer:
            _stdin_read = (sys.stdin.buffer, sys.stdin.buffer.read(MAX_INPUT_BYTES + 1))
        data = _stdin_read[1][: limit + 1]
    else:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    if len(data) > limit:
        name = "standard input" if path == "-" else path
        raise InputError(f"{name} is larger than {limit:,} bytes")
    return data


def text_input(data: bytes, name: str) -> bytes:
    """``data`` when it is small enough for a text file (else :class:`InputError` naming ``name``)."""
    if len(data) > MAX_TEXT_BYTES:
        raise InputError(f"{name} is larger than {MAX_TEXT_BYTES:,} bytes; a text file here is far smaller")
    return data


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    """``--option KEY=VALUE`` pairs as a dict; raise :class:`InputError` for one without ``=``."""
    out: dict[str, str] = {}
    for pair in pairs or ():
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--option expects KEY=VALUE (e.g. construction-penalty=2), got {pair!r}")
        out[key.strip().lower()] = value.strip()
    return out


def in_file(name: str, exc: InputError) -> InputError:
    """``exc`` again, its message prefixed with the file it is about (its ``code`` kept)."""
    err = InputError(f"{name}: {exc}")
    err.code = exc.code
    return err


def read_tally(path: str) -> list[TallyLine]:
    """Read and parse the tally file (``-`` = standard input); errors name the file."""
    name = "standard input" if path == "-" else path
    try:
        return parse_tally(read_input(path, MAX_TEXT_BYTES))
    except InputError as exc:
        raise in_file(name, exc) from None

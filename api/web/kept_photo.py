"""A kept photo without what it says about where and when it was taken: its metadata removed, its pixels
untouched (the compressed image data is copied byte for byte, never decoded or re-encoded).

A phone's photo carries EXIF (GPS position, time, camera serial), often XMP and IPTC as well. The kept
photo is served back to whoever holds the scan, so it keeps only what draws it the same: a JPEG keeps its
JFIF header, colour profile (APP2) and Adobe colour transform (APP14), and of its EXIF only the orientation
(rewritten as a minimal EXIF block of that one tag); a PNG drops its ``eXIf`` and text chunks; a WebP its
``EXIF`` and ``XMP`` chunks. A HEIC photo's metadata lives inside its container's item boxes and cannot be
taken out without rewriting it, so a HEIC photo is not kept at all (:func:`without_location` says ``None``).
"""

from __future__ import annotations

import struct

__all__ = ["without_location"]

# JPEG segments kept before the image data: JFIF (APP0), ICC profile (APP2), Adobe (APP14); every other
# APPn (EXIF and XMP in APP1, IPTC in APP13, makers' own) and comments go.
_DROPPED_JPEG = frozenset(range(0xE1, 0xF0)) - {0xE2, 0xEE} | {0xFE}
_ORIENTATION = 0x0112
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_DROPPED = frozenset({b"eXIf", b"tEXt", b"zTXt", b"iTXt", b"tIME"})
_WEBP_DROPPED = frozenset({b"EXIF", b"XMP "})


def without_location(data: bytes, kind: str) -> bytes | None:
    """``data`` (a photo of ``kind``: ``jpeg``, ``png``, ``webp`` or ``heif``) with its metadata removed,
    or ``None`` when it cannot be kept without it. A file whose structure is damaged is not kept either."""
    try:
        if kind == "jpeg":
            return _jpeg(data)
        if kind == "png":
            return _png(data)
        if kind == "webp":
            return _webp(data)
    except (ValueError, struct.error):
        return None
    return None


def _jpeg(data: bytes) -> bytes:
    """The JPEG's header segments up to its first scan, less the dropped ones (an orientation kept as a
    minimal EXIF block in place of the first EXIF segment), then the rest of the file as it was."""
    if not data.startswith(b"\xff\xd8"):
        raise ValueError("not a JPEG")
    out = [b"\xff\xd8"]
    pos, orientation_written = 2, False
    while pos < len(data):
        if data[pos] != 0xFF:
            raise ValueError("a JPEG segment does not start with a marker")
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte before a marker
            pos += 1
            continue
        if marker == 0xDA or marker == 0xD9:  # the first scan (or an image with none): the rest as it is
            out.append(data[pos:])
            return b"".join(out)
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        segment = data[pos : pos + 2 + length]
        if len(segment) < 2 + length or length < 2:
            raise ValueError("a JPEG segment runs past the end of the file")
        if marker not in _DROPPED_JPEG:
            out.append(segment)
        elif marker == 0xE1 and not orientation_written and segment[4:10] == b"Exif\x00\x00":
            orientation = _exif_orientation(segment[10:])
            if orientation not in (None, 1):
                out.append(_orientation_segment(orientation))
            orientation_written = True
        pos += 2 + length
    raise ValueError("the JPEG ends before its image data")


def _exif_orientation(tiff: bytes) -> int | None:
    """The orientation tag of an EXIF block's first directory, or ``None``."""
    order = {b"II": "<", b"MM": ">"}.get(tiff[:2])
    if order is None:
        return None
    (ifd,) = struct.unpack(order + "I", tiff[4:8])
    (entries,) = struct.unpack(order + "H", tiff[ifd : ifd + 2])
    for k in range(entries):
        at = ifd + 2 + 12 * k
        tag, kind = struct.unpack(order + "HH", tiff[at : at + 4])
        if tag == _ORIENTATION and kind == 3:  # SHORT, stored in the first two bytes of the value field
            (value,) = struct.unpack(order + "H", tiff[at + 8 : at + 10])
            return value if 1 <= value <= 8 else None
    return None


def _orientation_segment(orientation: int) -> bytes:
    """An APP1 EXIF segment holding only the orientation tag (little-endian TIFF, one directory entry)."""
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1)
    tiff += struct.pack("<HHIHH", _ORIENTATION, 3, 1, orientation, 0) + struct.pack("<I", 0)
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def _png(data: bytes) -> bytes:
    """The PNG's chunks less the metadata ones (each chunk copied whole, its CRC with it)."""
    if not data.startswith(_PNG_SIGNATURE):
        raise ValueError("not a PNG")
    out, pos = [_PNG_SIGNATURE], len(_PNG_SIGNATURE)
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        end = pos + 12 + length
        if end > len(data):
            raise ValueError("a PNG chunk runs past the end of the file")
        if kind not in _PNG_DROPPED:
            out.append(data[pos:end])
        pos = end
        if kind == b"IEND":
            break
    return b"".join(out)


def _webp(data: bytes) -> bytes:
    """The WebP's chunks less ``EXIF`` and ``XMP``, with the extended header's flags for them cleared and
    the RIFF size written anew."""
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        raise ValueError("not a WebP")
    chunks, pos = [], 12
    while pos + 8 <= len(data):
        kind, length = struct.unpack("<4sI", data[pos : pos + 8])
        end = pos + 8 + length + (length & 1)
        if pos + 8 + length > len(data):
            raise ValueError("a WebP chunk runs past the end of the file")
        chunk = data[pos:end]
        if kind == b"VP8X" and length >= 1:
            chunk = chunk[:8] + bytes([chunk[8] & ~0x0C]) + chunk[9:]  # EXIF (0x08) and XMP (0x04) flags
        if kind not in _WEBP_DROPPED:
            chunks.append(chunk)
        pos = end
    body = b"WEBP" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body

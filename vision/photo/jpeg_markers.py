"""A JPEG's structure from its markers, read before any pixel is decoded: how many scans, frames and
markers it has, whether it is progressive and how its components are sampled.

libjpeg decodes every scan it finds over the whole image, and a progressive refinement scan can be repeated
at will: a 7999 × 7999 JPEG with one 95-byte scan repeated 300 times costs about 28 s of CPU, though the file
is 400 kB. Counting the scans first (a walk over the markers, skipping entropy-coded data with one C-speed
regular-expression search per segment) costs milliseconds and lets the decoder refuse such a file unread.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The start-of-frame markers (C0–CF but DHT C4, JPG C8 and DAC CC); the progressive ones among them.
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_PROGRESSIVE = frozenset({0xC2, 0xC6, 0xCA, 0xCE})
_SOS, _EOI, _SOI, _TEM = 0xDA, 0xD9, 0xD8, 0x01
# The next marker: 0xFF then a code that is not a stuffed zero, a restart marker (RST0–7 live inside
# entropy-coded data) or a fill byte. Scanning for it skips entropy-coded data as libjpeg's reader does.
_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")


@dataclass(frozen=True)
class JpegLayout:
    """What the markers of a JPEG's first image (up to its end-of-image marker) say."""

    scans: int
    frames: int
    markers: int
    progressive: bool
    # (horizontal, vertical) sampling factors of each component, from the frame header.
    sampling: tuple[tuple[int, int], ...] = ()

    def coefficient_bytes(self, width: int, height: int) -> int:
        """The whole-image coefficient buffer libjpeg holds for a progressive (or multi-scan) decoding:
        one 8 × 8 block of 2-byte coefficients per block of each component, at full size whatever the DCT
        scale of the output. 0 for a single-scan sequential JPEG, which is decoded a row of blocks at a time.

        >>> JpegLayout(10, 1, 14, True, ((2, 2), (1, 1), (1, 1))).coefficient_bytes(7999, 7999)
        192000000
        """
        if not (self.progressive or self.scans > 1) or not self.sampling:
            return 0
        h_max = max(h for h, _ in self.sampling)
        v_max = max(v for _, v in self.sampling)
        # Blocks per MCU row/column, as libjpeg rounds them: MCUs of h_max × v_max blocks of 8 pixels.
        mcus_x = -(-width // (8 * h_max))
        mcus_y = -(-height // (8 * v_max))
        blocks = sum(mcus_x * h * mcus_y * v for h, v in self.sampling)
        return blocks * 64 * 2


def jpeg_layout(data: bytes, *, max_scans: int, max_markers: int) -> JpegLayout:
    """Walk the markers of the JPEG in ``data`` up to its first end-of-image marker (an MPO's further
    images are not decoded). Stops counting as soon as ``max_scans`` scans or ``max_markers`` markers are
    passed (the counts returned are then one over). Damaged structure is skipped the way libjpeg skips it
    (to the next marker); judging the damage is left to the decoder."""
    scans = frames = markers = 0
    progressive = False
    sampling: tuple[tuple[int, int], ...] = ()
    pos = 2  # after the start-of-image marker
    while scans <= max_scans and markers <= max_markers:
        found = _MARKER.search(data, pos)
        if found is None:
            break
        code, pos = data[found.start() + 1], found.end()
        markers += 1
        if code == _EOI:
            break
        if code in (_SOI, _TEM):  # markers without a length
            continue
        length = int.from_bytes(data[pos : pos + 2], "big")
        segment = data[pos + 2 : pos + length]
        if code in _SOF:
            frames += 1
            progressive = code in _PROGRESSIVE
            count = segment[5] if len(segment) > 5 else 0
            factors = segment[6 : 6 + 3 * count]
            sampling = tuple((b >> 4, b & 15) for b in factors[1::3] if b >> 4 and b & 15)
        elif code == _SOS:
            scans += 1
        pos += max(length, 2)  # a length under 2 is damage: step over the two bytes and look again
    return JpegLayout(scans, frames, markers, progressive, sampling)

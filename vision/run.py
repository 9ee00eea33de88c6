"""What a scan's stages share beyond their data: the size photos are decoded at for a scan."""

from __future__ import annotations

__all__ = ["WORK_LONG_SIDE"]

# 12 MP photos are decoded at half size: ~4 px/mm on a city filling the frame, twice the rectified 2 px/mm.
# A deck photo is decoded the same way, so that its cards are read at a city's scale.
WORK_LONG_SIDE = 2016

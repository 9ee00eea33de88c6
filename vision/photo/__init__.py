"""Photo bytes to an upright RGB image, and what the photo itself says: the decoding (JPEG, PNG, WebP,
HEIC; the EXIF turn; bounded in pixels, memory and a JPEG's scans before any pixel is decoded), the JPEG
markers read first, the decoders' pixel work strip by strip, and how the light falls across the table.
Other rooms use only the names below.
"""

from vision.photo.decode import (
    MAX_FILE_BYTES,
    MAX_JPEG_MARKERS,
    MAX_JPEG_SCANS,
    WORK_LONG_SIDE,
    DecodedImage,
    ImageTooComplex,
    ImageTooLarge,
    NotAnImage,
    UnsupportedImage,
    decode_image,
    fit_long_side,
)
from vision.photo.jpeg_markers import jpeg_layout
from vision.photo.light import (
    OVEREXPOSED_SHARE,
    channel_max,
    channel_min,
    clipped_share,
    even_light,
    light_field,
)

__all__ = [
    "DecodedImage",
    "ImageTooComplex",
    "ImageTooLarge",
    "MAX_FILE_BYTES",
    "MAX_JPEG_MARKERS",
    "MAX_JPEG_SCANS",
    "NotAnImage",
    "OVEREXPOSED_SHARE",
    "UnsupportedImage",
    "WORK_LONG_SIDE",
    "channel_max",
    "channel_min",
    "clipped_share",
    "decode_image",
    "even_light",
    "fit_long_side",
    "jpeg_layout",
    "light_field",
]

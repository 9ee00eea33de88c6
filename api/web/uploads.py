"""Reading a photo upload: streamed multipart parsing with limits, and image type sniffing.

The body is parsed as it arrives (:func:`read_scan_form`), so an oversized upload is refused as soon as it
crosses the limit — from the ``Content-Length`` header before a byte of the body is read, or while streaming
when the client sends it chunked — instead of after the whole body has been buffered or spooled to disk.
The image's type is decided from its first bytes (:func:`sniff_image_type`), never from the client's
``Content-Type`` or file name.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import Request

from api.core import ServiceError
from api.web.admission import counted
from vision.photo import NotAnImage

# HEIF brands written by phones (iPhone: heic/mif1) and by other encoders; AVIF is HEIF too.
_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif", b"avis"}
SUPPORTED_TYPES = "JPEG, PNG, WebP or HEIC"
MAX_BOUNDARY = 200  # RFC 2046 allows 70 characters; python-multipart refuses more than 256


def form_schema(image: str, fields: dict[str, str]) -> dict[str, Any]:
    """The OpenAPI ``requestBody`` of a multipart upload (for a route's ``openapi_extra``: the body is
    parsed as a stream, not by FastAPI): a required binary ``image`` described by ``image``, and the text
    ``fields``, each with its description ("" for none)."""
    texts = {
        name: {"type": "string", **({"description": said} if said else {})} for name, said in fields.items()
    }
    schema = {
        "type": "object",
        "required": ["image"],
        "properties": {"image": {"type": "string", "format": "binary", "description": image}, **texts},
    }
    return {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": schema}}}}


class UploadTooLarge(ServiceError):
    """The request body (an upload, a deck's corrections) or the image part is bigger than the service
    accepts."""

    code = "too_large"
    status = 413


class BadUpload(ServiceError):
    """The request is not a well-formed multipart form with an ``image`` part."""

    code = "bad_upload"
    status = 400


class UnsupportedMediaType(ServiceError):
    """The request body is not ``multipart/form-data``."""

    code = "unsupported_media_type"
    status = 415


@dataclass
class ScanForm:
    """The parts of a scan upload: the image bytes and the optional small text fields."""

    image: bytes
    filename: str | None = None
    fields: dict[str, str] = field(default_factory=dict)
    more: dict[str, bytes] = field(default_factory=dict)  # further photos (fields named by the caller)


def sniff_image_type(head: bytes) -> str | None:
    """Name the image format from the first bytes of a file: ``jpeg``, ``png``, ``webp``, ``heif`` or None.

    >>> sniff_image_type(b"\\xff\\xd8\\xff\\xe0..."), sniff_image_type(b"GIF89a"), sniff_image_type(b"")
    ('jpeg', None, None)
    """
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if len(head) >= 12 and head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    # ISO base media file: a box size, then 'ftyp' and the major brand.
    if len(head) >= 12 and head[4:8] == b"ftyp" and head[8:12] in _HEIF_BRANDS:
        return "heif"
    return None


def require_image(data: bytes) -> str:
    """Return the sniffed type of ``data``; raise :class:`NotAnImage` for anything else."""
    kind = sniff_image_type(data[:32])
    if kind is None:
        what = "an empty file" if not data else "not a photo"
        raise NotAnImage(f"the uploaded 'image' is {what}: expected a {SUPPORTED_TYPES} image")
    return kind


class _FormCollector:
    """python-multipart callbacks that keep the ``image`` part and small text fields, enforcing limits."""

    def __init__(
        self,
        max_image_bytes: int,
        max_field_bytes: int,
        max_parts: int,
        image_fields: tuple[str, ...] = ("image",),
    ) -> None:
        self.max_image_bytes = max_image_bytes
        self.max_field_bytes = max_field_bytes
        self.max_parts = max_parts
        self.image_fields = image_fields
        self.parts = 0
        self.images: dict[str, bytearray] = {}
        self.filename: str | None = None
        self.fields: dict[str, str] = {}
        self._header_name = b""
        self._header_value = b""
        self._disposition = b""
        self._name = ""
        self._is_file = False
        self._buf = bytearray()

    def on_part_begin(self) -> None:
        self.parts += 1
        if self.parts > self.max_parts:
            raise BadUpload(f"too many form parts (at most {self.max_parts})")
        self._disposition = b""
        self._buf = bytearray()

    def on_header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_name += data[start:end]

    def on_header_value(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def on_header_end(self) -> None:
        if self._header_name.strip().lower() == b"content-disposition":
            self._disposition = self._header_value
        self._header_name = b""
        self._header_value = b""

    def on_headers_finished(self) -> None:
        _, options = parse_options_header(self._disposition)
        if b"name" not in options:
            raise BadUpload("a form part has no name (Content-Disposition must name each field)")
        self._name = options[b"name"].decode("utf-8", "replace")
        self._is_file = b"filename" in options
        if self._is_file and self._name not in self.image_fields:
            raise BadUpload(f"send the photo in a field named 'image' (got a file in {self._name!r})")
        if self._name in self.image_fields:
            if self._name in self.images:
                raise BadUpload(f"send one photo per field (the form has more than one {self._name!r} part)")
            if self._name == "image":
                self.filename = options[b"filename"].decode("utf-8", "replace") if self._is_file else None

    def on_part_data(self, data: bytes, start: int, end: int) -> None:
        self._buf += data[start:end]
        if self._name in self.image_fields:
            if len(self._buf) > self.max_image_bytes:
                raise UploadTooLarge(f"the photo is larger than {_megabytes(self.max_image_bytes)}")
        elif len(self._buf) > self.max_field_bytes:
            raise BadUpload(f"form field {self._name!r} is longer than {self.max_field_bytes} bytes")

    def on_part_end(self) -> None:
        if self._name in self.image_fields:
            self.images[self._name] = self._buf
        else:
            try:
                self.fields[self._name] = self._buf.decode("utf-8")
            except UnicodeDecodeError:
                raise BadUpload(f"form field {self._name!r} is not UTF-8 text") from None
        self._buf = bytearray()


def _megabytes(n: int) -> str:
    return f"{n / 1_000_000:g} MB"


async def read_scan_form(
    content_type: str | None,
    content_length: str | None,
    stream: AsyncIterator[bytes],
    *,
    max_body_bytes: int,
    max_field_bytes: int = 4096,
    max_parts: int = 8,
    image_fields: tuple[str, ...] = ("image",),
) -> ScanForm:
    """Parse a ``multipart/form-data`` scan upload from ``stream`` as it arrives.

    Takes the request's ``Content-Type`` and ``Content-Length`` headers and its body stream; returns the
    ``image`` part's bytes and the other text fields. Raises :class:`UploadTooLarge` when the declared or the
    streamed size passes ``max_body_bytes`` (before reading further), :class:`UnsupportedMediaType` when the
    body is not multipart, :class:`BadUpload` for a malformed form or a missing ``image`` part, and
    :class:`NotAnImage` when the image's first bytes are not a supported image format. Files are
    accepted in the ``image_fields`` (the first one required); the others come in ``ScanForm.more``.
    """
    boundary = _boundary(content_type, content_length, max_body_bytes)
    collector = _FormCollector(max_body_bytes, max_field_bytes, max_parts, image_fields)
    await _parse(boundary, stream, collector, max_body_bytes)
    if "image" not in collector.images:
        raise BadUpload("the form has no 'image' part (send the photo in a field named 'image')")
    image = bytes(collector.images.pop("image"))
    require_image(image)
    more = {name: bytes(data) for name, data in collector.images.items()}
    for data in more.values():
        require_image(data)
    return ScanForm(image=image, filename=collector.filename, fields=collector.fields, more=more)


async def read_upload(request: Request, take: Callable[[int], None], **limits: Any) -> ScanForm:
    """:func:`read_scan_form` of ``request``'s body, each chunk counted by ``take`` (an admission's)."""
    headers = request.headers
    stream = counted(request.stream(), take)
    return await read_scan_form(headers.get("content-type"), headers.get("content-length"), stream, **limits)


def _boundary(content_type: str | None, content_length: str | None, max_body_bytes: int) -> bytes:
    """The multipart boundary of an upload whose headers are acceptable (else the error saying why)."""
    mime, params = parse_options_header(content_type or "")
    if mime != b"multipart/form-data":
        raise UnsupportedMediaType(
            "send the photo as multipart/form-data with the file in a field named 'image'"
            + (f" (got {mime.decode('latin-1')})" if mime else "")
        )
    boundary: bytes | None = params.get(b"boundary")
    if not boundary:
        raise BadUpload("the multipart Content-Type has no boundary")
    if content_length is not None:
        if not (content_length.isascii() and content_length.isdigit()):
            raise BadUpload("the Content-Length header is not a number")
        if len(content_length) > 15 or int(content_length) > max_body_bytes:
            raise UploadTooLarge(f"the upload is larger than {_megabytes(max_body_bytes)}")
    if len(boundary) > MAX_BOUNDARY:
        raise BadUpload(f"the multipart boundary is longer than {MAX_BOUNDARY} characters")
    return boundary


async def _parse(
    boundary: bytes, stream: AsyncIterator[bytes], collector: _FormCollector, max_body_bytes: int
) -> None:
    """Feed ``stream`` to ``collector`` through the multipart parser (at most ``max_body_bytes``)."""
    received = 0
    try:
        parser = MultipartParser(
            boundary,
            {
                "on_part_begin": collector.on_part_begin,
                "on_part_data": collector.on_part_data,
                "on_part_end": collector.on_part_end,
                "on_header_field": collector.on_header_field,
                "on_header_value": collector.on_header_value,
                "on_header_end": collector.on_header_end,
                "on_headers_finished": collector.on_headers_finished,
            },
        )
        async for chunk in stream:
            received += len(chunk)
            if received > max_body_bytes:
                raise UploadTooLarge(f"the upload is larger than {_megabytes(max_body_bytes)}")
            parser.write(chunk)
        parser.finalize()
    except FormParserError as exc:
        raise BadUpload(f"malformed multipart form: {exc}") from None

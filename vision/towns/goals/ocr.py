"""The words on a few small images, read by Tesseract in one run.

Tesseract is a system program (Debian's ``tesseract-ocr``, installed by ``make tesseract``), called as a
subprocess: no Python binding to pin, and a machine without it loses only the reading of goal cards
(:class:`OcrUnavailable`, which the caller turns into a warning), never a scan.

All the images go to one run as the pages of a list file: the language model loads once, and each image is
laid out on its own (put side by side on one page, a stray mark on one title changed how Tesseract read
its neighbour's). Each page is read as one block of text (``--psm 6``): a title is one or two lines. One
thread (``OMP_THREAD_LIMIT``): a few small titles gain nothing from more, and the service runs scans side
by side.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

__all__ = ["OCR_TIMEOUT_S", "OcrUnavailable", "read_words", "tesseract_path"]

#: A run that takes longer than this (s) is abandoned: the goal cards are then not read.
OCR_TIMEOUT_S = 20.0
#: White border (px) round each image: Tesseract reads print that touches the page's edge poorly.
PAD = 20


class OcrUnavailable(RuntimeError):
    """Tesseract is not installed, or its run failed: no text could be read."""


def tesseract_path() -> str | None:
    """The Tesseract program on this machine's PATH, or None."""
    return shutil.which("tesseract")


def read_words(images: Sequence[np.ndarray], *, program: str | None = None) -> list[str]:
    """The text Tesseract reads on each grey image of ``images``, in order (words joined by spaces, lines
    in reading order). Raises :class:`OcrUnavailable` when ``program`` (default: :func:`tesseract_path`)
    is missing or fails."""
    if not images:
        return []
    binary = program or tesseract_path()
    if binary is None:
        raise OcrUnavailable("Tesseract OCR is not installed (Debian: apt-get install tesseract-ocr)")
    with tempfile.TemporaryDirectory(prefix="sprawlscan-ocr-") as folder:
        pages = []
        for k, image in enumerate(images):
            page = Path(folder) / f"{k}.png"
            bordered = cv2.copyMakeBorder(image, PAD, PAD, PAD, PAD, cv2.BORDER_CONSTANT, value=255)
            cv2.imwrite(str(page), bordered)
            pages.append(str(page))
        listing = Path(folder) / "pages.txt"
        listing.write_text("\n".join(pages) + "\n", encoding="utf-8")
        try:
            run = subprocess.run(
                [binary, str(listing), "-", "--psm", "6", "tsv"],
                capture_output=True, text=True, timeout=OCR_TIMEOUT_S, check=False,
                env={**os.environ, "OMP_THREAD_LIMIT": "1"},
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise OcrUnavailable(f"Tesseract OCR could not run ({type(exc).__name__})") from None
    if run.returncode != 0:
        raise OcrUnavailable(f"Tesseract OCR failed (exit status {run.returncode})")
    return _page_texts(run.stdout, len(images))


def _page_texts(tsv: str, n_pages: int) -> list[str]:
    """Each page's words from Tesseract's TSV (level 5 rows are words; column 2 is the 1-based page)."""
    words: list[list[str]] = [[] for _ in range(n_pages)]
    for row in tsv.splitlines():
        cells = row.split("\t")
        if len(cells) == 12 and cells[0] == "5" and cells[11].strip() and cells[1].isdigit():
            page = int(cells[1]) - 1
            if 0 <= page < n_pages:
                words[page].append(cells[11].strip())
    return [" ".join(w) for w in words]

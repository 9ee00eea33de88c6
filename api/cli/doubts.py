"""The cells in doubt of a scan (a city's or a town's JSON ``doubt``) in plain words, for under the
breakdown that ``sprawlscan scan`` prints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["doubt_text"]


def doubt_text(doubt: Sequence[dict[str, Any]]) -> str:
    """The doubtful cells in plain words, one line each, for under the breakdown."""
    if not doubt:
        return ""
    lines = ["", "Cells to check (the scan could have read them otherwise):"]
    for d in doubt:
        scored = [a for a in d["alternatives"] if a.get("total") is not None]
        ifs = "; ".join(f"if it is {a['label']} the total is {a['total']}" for a in scored)
        if not scored:  # a reading not scored (a retake): what else the cell could be
            ifs = "it could be " + _one_of([a["label"] for a in d["alternatives"]])
        lines.append(f"  {d['cell']} read as {d['reading']}: {ifs} ({d['why']})")
    return "\n".join(lines) + "\n"


def _one_of(labels: list[str]) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]

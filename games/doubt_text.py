"""The cells in doubt of a scan (a city's or a town's JSON ``doubt``) in plain words, for under the
breakdown that ``sprawlscan scan`` prints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["doubt_text"]


def doubt_text(doubt: Sequence[dict[str, Any]], total: int | None = None) -> str:
    """The doubtful cells in plain words, one line each, for under the breakdown; ``total``: the score
    read, so that an alternative that leaves it as it is says which lines it changes instead."""
    if not doubt:
        return ""
    lines = ["", "Cells to check (the scan could have read them otherwise):"]
    for d in doubt:
        scored = [a for a in d["alternatives"] if a.get("total") is not None]
        ifs = "; ".join(_if(a, total) for a in scored)
        if not scored:  # a reading not scored (a retake): what else the cell could be
            ifs = "it could be " + _one_of([a["label"] for a in d["alternatives"]])
        lines.append(f"  {d['cell']} read as {d['reading']}: {ifs} ({d['why']})")
    return "\n".join(lines) + "\n"


def _if(alternative: dict[str, Any], total: int | None) -> str:
    """What the city would score if the cell were ``alternative``: its total, or where the total is the
    same, the lines that would change (``changes`` of :func:`games.sprawlopolis.score_scan`)."""
    label, other = alternative["label"], alternative["total"]
    changes = alternative.get("changes") or []
    if alternative.get("note"):  # a block only an expansion's card shows (vision.city.doubt.EXPANSION_ONLY)
        label = f"{label} ({alternative['note']})"
    if other == total and not changes and total is not None:  # told for what it shows (a road drawn)
        return f"if it is {label} the total is {other} too, and no line changes"
    if other != total or not changes:
        return f"if it is {label} the total is {other}"
    moved = ", ".join(f"{c['line']} {_points(c['from'])} → {_points(c['to'])}" for c in changes)
    return f"if it is {label} the total is {other} too, by other lines ({moved})"


def _points(points: int | None) -> str:
    return "none" if points is None else str(points)


def _one_of(labels: list[str]) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]

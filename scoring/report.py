"""Plain-text renderings for people: a score breakdown as an aligned table, and a tally check.

Both are meant for a terminal: a label column, a right-aligned points column, and the explanation wrapped
beside them so every line can be checked on the table.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from scoring.breakdown import Breakdown, LineItem
from scoring.tally import LineCheck, TallyReport

WIDTH = 110


def _points(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _table(rows: Sequence[tuple[str, str, str]], indent: int = 2, width: int = WIDTH) -> list[str]:
    """Rows of (label, points, detail) as aligned lines, the detail wrapped in its own column."""
    if not rows:
        return []
    label_w = max(len(r[0]) for r in rows)
    points_w = max(len(r[1]) for r in rows)
    offset = indent + label_w + 2 + points_w + 2
    detail_w = max(30, width - offset)
    out = []
    for label, points, detail in rows:
        head = " " * indent + label.ljust(label_w) + "  " + points.rjust(points_w)
        wrapped = textwrap.wrap(detail, detail_w) or [""]
        out.append((head + "  " + wrapped[0]).rstrip())
        out += [" " * offset + more for more in wrapped[1:]]
    return out


def _heading(breakdown: Breakdown) -> str:
    """A Sprawlopolis city's heading: its scoring cards by number and name."""
    game = "Sprawlopolis"
    if not breakdown.cards:
        return f"{game}: no scoring cards"
    names = {}
    for item in breakdown.items:
        number = item.key.rsplit("card:", 1)[-1] if "card:" in item.key else ""
        if number.isdigit():
            names.setdefault(int(number), item.label.split(": ")[-1].removesuffix(" (majority)"))
    cards = ", ".join(f"{n} {names[n]}" if n in names else str(n) for n in breakdown.cards)
    return f"{game}: scoring cards {cards}"


def _item_rows(items: Sequence[LineItem], strip: str = "") -> list[tuple[str, str, str]]:
    return [(i.label.removeprefix(strip), _points(i.points), i.detail) for i in items]


def _notes(notes: Sequence[str], width: int) -> list[str]:
    if not notes:
        return []
    out = ["", "Notes:"]
    for note in notes:
        wrapped = textwrap.wrap(note, width - 4) or [""]
        out.append("  - " + wrapped[0])
        out += ["    " + more for more in wrapped[1:]]
    return out


def _competitive(breakdown: Breakdown, info: dict[str, Any], width: int) -> list[str]:
    by_key = {i.key: i for i in breakdown.items}
    lines: list[str] = []
    for player in info["players"]:
        side = str(player["side"])
        items = [by_key[k] for k in player["keys"] if k in by_key]
        rows = _item_rows(items, f"{side.title()}: ")
        rows.append(("Total", str(player["total"]), ""))
        lines += ["", f"{side.title()} player"]
        lines += _table(rows, width=width)
    winner = info.get("winner")
    verdict = f"{str(winner).title()} wins" if winner else "Shared win"
    how = {"score": "on score", "tiebreaker": f"on the tiebreaker ({info.get('tiebreaker')})", "tie": ""}
    lines += ["", f"Result: {verdict} {how.get(str(info.get('decided_by')), '')}".rstrip() + "."]
    return lines


def render_text(breakdown: Breakdown, width: int = WIDTH, heading: str | None = None) -> str:
    """The breakdown as a table (label, points, explanation), then total, target and WIN/LOSE, then notes,
    under ``heading`` (by default a Sprawlopolis city's: its scoring cards; another game's renderer says
    its own).

    A competitive Interstate breakdown is shown as one table per player followed by the result.
    """
    lines = [_heading(breakdown) if heading is None else heading]
    info = dict(breakdown.extra).get("interstate")
    if isinstance(info, dict) and info.get("mode") == "competitive":
        lines += _competitive(breakdown, info, width)
    else:
        rows = _item_rows(breakdown.items)
        rows.append(("Total", str(breakdown.total), ""))
        if breakdown.target is not None:
            verdict = "WIN" if breakdown.won else "LOSE"
            sign = "≥" if breakdown.won else "<"
            rows.append(
                ("Target", str(breakdown.target), f"{verdict} ({breakdown.total} {sign} {breakdown.target})")
            )
        lines += [""] + _table(rows, width=width)
    lines += _notes(breakdown.notes, width)
    return "\n".join(lines) + "\n"


def _verdict(check: LineCheck) -> str:
    if check.item is None:
        return "NO MATCH"
    return "agree" if check.agree else "DIFFERS"


def render_check(report: TallyReport, width: int = WIDTH) -> str:
    """A tally check for people: each tally line with the computed value and verdict, missed lines, totals."""
    lines = ["Hand tally compared with the computed score", ""]
    rows = []
    for check in report.checks:
        written = f"line {check.tally.line}: {check.tally.label} {_points(check.tally.points)}"
        computed = "—" if check.computed is None else _points(check.computed)
        matched = "" if check.item is None else f"[{check.item.label}] "
        why = check.why if check.agree is not True else "matches."
        rows.append((written, computed, f"{_verdict(check)}: {matched}{why}"))
    lines += _table(rows, width=width)
    # A line worth 0 is not missing from a tally (nobody writes down a 0): it is listed apart, so the
    # count in the verdict is the length of the list above it.
    scoring_missed = [i for i in report.missed if i.points]
    zero_missed = [i for i in report.missed if not i.points]
    if scoring_missed:
        lines += ["", f"Scoring lines missing from the tally ({len(scoring_missed)}):"]
        lines += _table(_item_rows(scoring_missed), width=width)
    if zero_missed:
        lines += ["", "Lines worth 0 the tally need not mention:"]
        lines += _table(_item_rows(zero_missed), width=width)
    lines.append("")
    if report.stated_total is not None:
        lines.append(
            f"Tally total: {report.stated_total.points} as written (its lines add up to {report.tally_sum})"
            + ("" if report.stated_total.points == report.tally_sum else " — the tally's own sum is off")
        )
    else:
        lines.append(f"Tally total: {report.tally_sum} (sum of its lines; no total line)")
    lines.append(f"Computed total: {report.computed_total}")
    lines.append(f"Difference (tally − computed): {_points(report.difference) if report.difference else '0'}")
    if report.agrees:
        lines.append("Verdict: the tally agrees with the computed score.")
    else:
        problems = []
        if report.disagreeing:
            problems.append(f"{len(report.disagreeing)} line(s) differ")
        if report.unmatched:
            problems.append(f"{len(report.unmatched)} line(s) match nothing")
        if scoring_missed:
            problems.append(f"{len(scoring_missed)} scoring line(s) missing from the tally")
        if report.difference:
            problems.append(f"totals differ by {abs(report.difference)}")
        lines.append("Verdict: the tally does not agree: " + ("; ".join(problems) or "see above") + ".")
    return "\n".join(lines) + "\n"

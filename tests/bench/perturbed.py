"""The devset read in everyday perturbations (``tests/bench/bench_real.py --perturb``): is a reading the same
whatever a phone and a room do to the photo, and when it is wrong, does the scan say where?

Every photo is read upright (as its file) and in each perturbation of :mod:`tests.bench.perturb`, made at run
time from the upright pixels ("no scoring cards in view", ``nocards``, from where the upright reading found
the city; a photo whose upright reading found none is refused in it too). For each perturbation and over all
of them it prints: readings identical to the upright one (the same city, up to a whole turn and a shift, with
the same scoring cards), blocks right, cities exact, wrong cells, wrong cells named in the scan's ``doubt``
list (``[{"cell": "D6", ...}]``; a scan without one names none), wrong cells named in a warning (today's
stand-in), readings refused (no city found, or a ``retake`` asked for: an honest answer, not a silent one) and
doubtful cells per photo. It ends with ``devset perturbed: identical K/N, wrong cells W, silent S, doubt per
photo D`` over the perturbed readings, where silent counts wrong cells not named in ``doubt``.
"""

from __future__ import annotations

import re
import sys
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["changes_a_line", "chosen", "figures", "read_perturbed", "report", "run"]

# A cell name as the scan writes it (vision.city.result: column letters, then the 1-based row).
_CELL_NAME = re.compile(r"\b([A-Z]{1,2}[1-9][0-9]?)\b")
_CELLS = ("wrong", "in_doubt", "in_warnings", "silent", "harmless")


def chosen(spec: str | None) -> list[str]:
    """The perturbations ``--perturb`` names: all of them for None or "all", none for "none", else the
    comma-separated names; raises ValueError naming any unknown."""
    from tests.bench.perturb import LOCATED, PERTURBATIONS

    known = [*PERTURBATIONS, *LOCATED]
    if spec in (None, "all"):
        return known
    if spec == "none":
        return []
    names = [n.strip() for n in spec.split(",") if n.strip()]
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise ValueError(
            f"--perturb: unknown {', '.join(unknown) or '(none named)'}; known: {', '.join(known)}"
        )
    return names


def _scan(photo: Any, truth: Any) -> dict[str, Any]:
    """Scan ``photo`` (RGB pixels or a file's bytes) and compare it with ``truth``; ``box``: where the
    city was found, as fractions of the photo (:func:`_city_box`)."""
    from scoring.errors import InputError
    from tests.evaluate import compare_cities
    from vision.photo.decode import fit_long_side
    from vision.pipeline import WORK_LONG_SIDE, scan_image, scan_rgb

    try:
        if isinstance(photo, bytes):
            result = scan_image(photo)
        else:
            result = scan_rgb(fit_long_side(photo, WORK_LONG_SIDE)[0])
    except InputError as exc:  # no city found: a refusal, honest though not a reading
        empty = {"blocks": 0, "of": compare_cities(truth, None).cells, "exact": False, "doubt": 0}
        return {"refused": str(exc), "city": None, "cards": None, **empty, **dict.fromkeys(_CELLS, [])}
    return {**figures(truth, result.city, result.to_json()), "box": _city_box(result)}


def _city_box(result: Any) -> tuple[float, float, float, float, float]:
    """The read city's cells' bounding box and a block's width, as fractions of the photo's width and
    height (x0, y0, x1, y1, width): where it lies whatever size the photo is decoded at."""
    from vision.city.overlay import cell_outlines

    quads = np.array(list(cell_outlines(result.geometry, result.assembled).values()), float)
    widths = np.hypot(*(quads[:, 1] - quads[:, 0]).T)
    lo, hi = quads.reshape(-1, 2).min(axis=0), quads.reshape(-1, 2).max(axis=0)
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]), float(np.median(widths)))


def _in_pixels(box: tuple[float, ...] | None, rgb: Any) -> Any:
    """:func:`_city_box`'s fractions as a :class:`tests.bench.perturb.CityBox` in ``rgb``'s pixels."""
    from tests.bench.perturb import CityBox

    if box is None:
        return None
    h, w = rgb.shape[:2]
    x0, y0, x1, y1, width = box
    return CityBox(x0 * w, y0 * h, x1 * w, y1 * h, width * w)


def figures(truth: Any, city: Any, out: dict[str, Any]) -> dict[str, Any]:
    """How the read ``city`` (with the scan's JSON ``out``) compares with ``truth``, and which of its
    wrong cells the scan named: in ``doubt`` (``[{"cell": "D6", ...}]``), in a warning, or nowhere."""
    from scoring.city import cell_name, format_city
    from tests.evaluate import compare_cities

    retake = out.get("retake")
    doubt = {str(d.get("cell")) for d in out.get("doubt") or [] if isinstance(d, dict)}
    warned = {name for w in out.get("warnings", []) for name in _CELL_NAME.findall(str(w))}
    score = compare_cities(truth, city)
    # The wrong cells named as the scan names them (cells of the read city); a true block the read city
    # has no cell for is named by where it lies in the truth.
    back = {score.to_truth(city, r, c): cell_name(r, c) for r, c, _ in city.cells()}
    wrong = [back.get(where, f"missing@{where[0]},{where[1]}") for where, _, _ in score.wrong]
    # A misreading the breakdown cannot show (the same line for every item with the true cards: a road's
    # bend that ends no road more or less and that no card counts) is not the player's to check.
    harmless = [
        w
        for w, (where, _, got) in zip(wrong, score.wrong, strict=True)
        if not changes_a_line(truth, where, got)
    ]
    return {
        "refused": retake,
        "city": format_city(city),
        "cards": sorted(city.cards),
        "blocks": score.right,
        "of": score.cells,
        "exact": score.exact,
        "wrong": wrong,
        "in_doubt": [w for w in wrong if w in doubt],
        "in_warnings": [w for w in wrong if w in warned],
        # A retake asked for is honest about every cell; otherwise a wrong cell not in doubt is silent,
        # unless it changes nothing the breakdown shows ("harmless", counted apart).
        "silent": [] if retake else [w for w in wrong if w not in doubt and w not in harmless],
        "harmless": [] if retake else [w for w in wrong if w not in doubt and w in harmless],
        "doubt": len(doubt),
        "placements": [p.get("card") for p in out.get("placements") or [] if isinstance(p, dict)],
        "cards_in_doubt": list((out.get("scoring_cards") or {}).get("in_doubt") or []),
        "cards_source": out.get("cards_source"),
    }


def changes_a_line(truth: Any, where: tuple[int, int], got: str) -> bool:
    """Whether the true city with the cell at ``where`` read as ``got`` scores any line of its breakdown
    otherwise, with its own scoring cards (a cell beyond the truth's grid always counts)."""
    from scoring.city import parse_cell
    from scoring.engine import score_city
    from scoring.errors import InputError

    r, c = where
    if not (0 <= r < truth.n_rows and 0 <= c < truth.n_cols):
        return True
    try:
        misread = truth.with_cell(r, c, parse_cell(got))
        lines = [(i.key, i.points) for i in score_city(misread).items]
    except InputError:
        return True
    return lines != [(i.key, i.points) for i in score_city(truth).items]


def read_perturbed(job: tuple[Path, str, list[str]]) -> dict[str, dict[str, Any]]:
    """One devset photo read upright and in each perturbation named: {way: figures}."""
    from scoring.city_text import parse_city
    from tests.bench.perturb import LOCATED, perturbed
    from tests.evaluate import compare_cities
    from vision.photo.decode import decode_image

    folder, name, ways = job
    truth = parse_city((folder / f"{name}.city").read_text())
    data = (folder / f"{name}.jpg").read_bytes()
    upright = _scan(data, truth)
    rows = {"upright": upright}
    rgb = decode_image(data).rgb
    for way in ways:
        box = _in_pixels(upright.get("box"), rgb)
        if way in LOCATED and box is None:  # nowhere to crop to: refused as the upright reading was
            rows[way] = {**upright, "identical": False}
            continue
        row = _scan(perturbed(way, rgb, box), truth)
        same_city = upright["city"] is not None and row["city"] is not None
        if same_city:
            a, b = parse_city(upright["city"]), parse_city(row["city"])
            # With the backs out of view the cards are the city's to tell, or no one's: the city is compared.
            same_cards = way in LOCATED or upright["cards"] == row["cards"]
            same_city = compare_cities(a, b).exact and same_cards
        row["identical"] = bool(same_city) and not row["refused"]
        rows[way] = row
    upright["identical"] = True
    return {way: {**row, "name": name} for way, row in rows.items()}


def run(folder: Path, names: list[str], ways: list[str], jobs: int) -> dict[str, list[dict[str, Any]]]:
    """Every photo named, read upright and in ``ways``: {way: [figures per photo]}."""
    work = [(folder, name, ways) for name in names]
    done = []
    with ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else nullcontext() as pool:
        for i, photo in enumerate(pool.map(read_perturbed, work) if pool else map(read_perturbed, work)):
            done.append(photo)
            print(f"  {i + 1}/{len(work)} {photo['upright']['name']} read", file=sys.stderr, flush=True)
    return {way: [photo[way] for photo in done] for way in ["upright", *ways]}


def _line(way: str, rows: list[dict[str, Any]]) -> str:
    n = len(rows)

    def total(key: str) -> int:
        return sum(len(r.get(key) or []) if key in _CELLS else int(bool(r[key])) for r in rows)

    right, of = sum(r["blocks"] for r in rows), sum(r["of"] for r in rows)
    return (
        f"{way:13s} {total('identical'):>4d}/{n:<4d} {right:>5d}/{of:<5d} {total('exact'):>4d}/{n:<4d} "
        f"{total('wrong'):>5d} {total('in_doubt'):>6d} {total('in_warnings'):>6d} {total('silent'):>6d} "
        f"{total('harmless'):>8d} {total('refused'):>7d} {sum(r['doubt'] for r in rows) / max(n, 1):>8.2f}"
    )


def report(by_way: dict[str, list[dict[str, Any]]]) -> str:
    """The table: one line per way, one over every perturbed reading, the odd readings, the summary line."""
    head = (
        f"{'':13s} {'identical':>9s} {'blocks right':>11s} {'exact':>9s} {'wrong':>5s} {'doubt':>6s} "
        f"{'warned':>6s} {'silent':>6s} {'harmless':>8s} {'refused':>7s} {'doubt/ph':>8s}"
    )
    lines = [head]
    perturbed_rows = [r for way, rows in by_way.items() if way != "upright" for r in rows]
    for way, rows in by_way.items():
        lines.append(_line(way, rows))
    lines.append(_line("all perturbed", perturbed_rows))
    for way, rows in by_way.items():
        for r in rows:
            if not r["identical"] or r["wrong"] or r["refused"]:
                what = r["refused"] or " ".join(r["wrong"]) or "right, differs from upright"
                lines.append(f"    {way} {r['name']}: {r['blocks']}/{r['of']} {what}")
    n = len(perturbed_rows)
    wrong = sum(len(r["wrong"]) for r in perturbed_rows)
    silent = sum(len(r["silent"]) for r in perturbed_rows)
    doubt = sum(r["doubt"] for r in perturbed_rows) / max(n, 1)
    same = sum(r["identical"] for r in perturbed_rows)
    harmless = sum(len(r.get("harmless", [])) for r in perturbed_rows)
    lines.append(
        f"devset perturbed: identical {same}/{n}, wrong cells {wrong}, silent {silent}, "
        f"doubt per photo {doubt:.2f} (unnamed wrong cells that change nothing scored: {harmless})"
    )
    return "\n".join(lines)

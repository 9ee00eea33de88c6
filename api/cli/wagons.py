"""``sprawlscan score|check TOWN --game wagons``: score a Circle the Wagons town, or check a hand tally.

``api.cli.score`` owns the ``score`` and ``check`` parsers; it calls :func:`add_arguments` to add this
game's options and hands ``--game wagons`` runs to :func:`run_score` and :func:`run_check`. Goal cards,
the scenario and the opponent pile come from the options or, failing that, from the town file's header.
Tally lines that begin with "opponent" (``opponent 14``, ``opponent top three 9``) are checked against
the opponent's score; the others against the player's.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace

from api.cli.inputs import MAX_TEXT_BYTES, in_file, is_photo, parse_options, read_input, read_tally
from api.core import breakdown_in_flag_words
from scoring.breakdown import Breakdown
from scoring.errors import InputError
from scoring.wagons import GOALS, SCENARIO_CARDS, SCENARIOS, Town, parse_town, score_town
from scoring.wagons.score import opponent_breakdown

_SPRAWLOPOLIS_ONLY = {"cards": "--cards", "expansion": "--expansion", "variant": "--variant"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the Circle the Wagons options to a ``score`` or ``check`` parser."""
    group = parser.add_argument_group("Circle the Wagons (--game wagons)")
    group.add_argument(
        "--goals",
        nargs="+",
        metavar="NAME",
        help="goal cards in play, e.g. cool-water badlands (any case; default: the town's 'goals:' header, "
        f"else the scenario's two cards; wildest-west may be added). Goal ids: {', '.join(GOALS)}",
    )
    group.add_argument(
        "--scenario",
        metavar="NAME",
        help=f"Lone Cowboy scenario ({', '.join(SCENARIOS)})",
    )
    group.add_argument(
        "--opponent-pile",
        nargs="+",
        metavar="N",
        help="the opponent's pile: card numbers 0-17, or counts such as prairie=5 snow=5 wagon=3 cards=6",
    )
    group.add_argument(
        "--opponent-town",
        metavar="FILE",
        help="the other player's town, for the two-town goal cards of a two-player game",
    )


def _refuse_sprawlopolis_options(args: argparse.Namespace) -> None:
    for dest, flag in _SPRAWLOPOLIS_ONLY.items():
        if getattr(args, dest, None):
            raise InputError(
                f"{flag} is a Sprawlopolis option; for Circle the Wagons give --goals, --scenario, "
                "--opponent-pile or --opponent-town"
            )


def _load_town(path: str) -> Town:
    name = "standard input" if path == "-" else path
    data = read_input(path, MAX_TEXT_BYTES)
    if is_photo(data):
        raise InputError(
            f"{name} is a photo; Circle the Wagons towns cannot be scanned yet, type the town instead"
        )
    try:
        return parse_town(data)
    except InputError as exc:
        raise in_file(name, exc) from None


def score_args(args: argparse.Namespace) -> Breakdown:
    """Score the town named by ``args.city`` with the options in ``args``."""
    _refuse_sprawlopolis_options(args)
    town = _load_town(args.city)
    other_path = getattr(args, "opponent_town", None)
    if other_path is not None and other_path == "-" == args.city:
        raise InputError("only one of the town and the opponent's town can be read from standard input")
    other = _load_town(other_path) if other_path is not None else None
    breakdown = score_town(
        town,
        goals=getattr(args, "goals", None),
        opponent_town=other,
        opponent_pile=getattr(args, "opponent_pile", None),
        scenario=getattr(args, "scenario", None),
        options=parse_options(getattr(args, "option", None)),
    )
    return breakdown_in_flag_words(breakdown)


def _heading(breakdown: Breakdown) -> str:
    extra = dict(breakdown.extra)
    goals = ", ".join(GOALS[g] for g in extra["goals"]) or "none"
    heading = f"Circle the Wagons: goal cards {goals}"
    if extra.get("scenario"):
        heading += f"; Lone Cowboy scenario {SCENARIO_CARDS[extra['scenario']].name}"
    return heading


def _tagged(breakdown: Breakdown) -> Breakdown:
    """The breakdown with each goal line's provenance shown in its label, for the text table."""
    items = tuple(
        replace(i, label=f"{i.label} [{i.provenance}]") if i.provenance else i for i in breakdown.items
    )
    return replace(breakdown, items=items)


def render_town(breakdown: Breakdown) -> str:
    """The player's table, then the opponent's (when there is one) and who scored more."""
    from scoring.report import render_text

    body = render_text(_tagged(breakdown)).split("\n", 1)[1]
    out = _heading(breakdown) + "\n" + body
    opponent = opponent_breakdown(breakdown)
    if opponent is None:
        return out
    kind = dict(breakdown.extra)["opponent"]["kind"]
    title = "Opponent's pile" if kind == "pile" else "Opponent's town"
    out += "\n" + title + "\n" + render_text(_tagged(opponent)).split("\n", 1)[1]
    beat = dict(breakdown.extra).get("beat_opponent")
    if beat is not None:
        result = dict(breakdown.extra)["result"]
        words = {"win": "you beat the opponent", "loss": "the opponent wins", "tie": "a tie"}[result]
        total = dict(breakdown.extra)["opponent"]["total"]
        out += f"\nResult: {words} ({breakdown.total} to {total}).\n"
    return out


def _emit(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def run_score(args: argparse.Namespace) -> int:
    """``sprawlscan score TOWN --game wagons``: print the breakdown (text or JSON); 0 on success."""
    breakdown = score_args(args)
    if args.format == "json":
        _emit(json.dumps(breakdown.to_json(), indent=2, ensure_ascii=False))
    else:
        _emit(render_town(breakdown))
    return 0


def run_check(args: argparse.Namespace) -> int:
    """``sprawlscan check TOWN --game wagons --tally FILE``: compare a hand tally line by line; 0 if run."""
    from scoring.report import render_check
    from scoring.wagons.check import check_town_tally

    if args.city == "-" and args.tally == "-":
        raise InputError("only one of the town and the tally can be read from standard input")
    breakdown = score_args(args)
    tally = read_tally(args.tally)
    result = check_town_tally(breakdown, tally)
    if args.format == "json":
        _emit(
            json.dumps({**result.to_json(), "breakdown": breakdown.to_json()}, indent=2, ensure_ascii=False)
        )
    else:
        text = render_check(result.player)
        if result.opponent is not None:
            text += "\nOpponent: " + render_check(result.opponent)
        _emit(text)
    return 0

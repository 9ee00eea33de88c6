"""Bad-input errors of the Circle the Wagons scorer; each is an :class:`~scoring.errors.InputError`."""

from __future__ import annotations

from scoring.errors import InputError


class UnknownNameError(InputError):
    """A goal card, scenario or option name that does not exist; the message lists the valid ones."""

    code = "unknown_name"


class PileError(InputError):
    """An opponent pile that cannot be used: a card that does not exist, a repeated card, a bad count."""

    code = "bad_pile"


class MissingInputError(InputError):
    """A value the rules need but that only the player can supply (e.g. the opponent's town for a
    two-town card)."""

    code = "missing_input"


class OptionError(InputError):
    """An option (``KEY=VALUE``, given with the town or in a header line) whose value is not usable."""

    code = "bad_option"


class ConflictError(InputError):
    """Inputs that contradict each other (goal cards that are not the scenario's, a town and a pile…)."""

    code = "conflicting_input"

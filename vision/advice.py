"""What a refusal tells the player to do about a print the scanner does not know: teach it the cards.

Every game's refusals say it in the same words, so the player meets one instruction wherever a scan
stops for the look of the cards; only the command differs, by the game's flag.

>>> teach_your_cards("sprawlscan teach DECK.jpg --game wagons")[:46]
'teach the scanner your cards with one photo of'
"""

from __future__ import annotations

__all__ = ["TEACH_AGAIN", "TEACH_COMMAND", "teach_your_cards"]

TEACH_COMMAND = "sprawlscan teach DECK.jpg"
# A taught deck that reads poorly: the photo (glare, shadow) is the likelier cause, so this comes second.
TEACH_AGAIN = "teach the deck again from a photo of these cards' 18 fronts face up"


def teach_your_cards(command: str = TEACH_COMMAND) -> str:
    """The instruction to teach the scanner a print, naming the command line's ``command`` and the page."""
    return (
        f"teach the scanner your cards with one photo of the 18 fronts face up (`{command}`, or the page's "
        "deck step), then scan with that deck"
    )

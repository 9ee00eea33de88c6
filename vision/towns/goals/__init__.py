"""The Circle the Wagons goal cards read from a town's photo (issue 37): the cards face up beside the town,
each named by its title, read by OCR and matched to the catalogue's names; a title read unsurely is asked
for, never guessed. :func:`read_goal_cards` is the room's face; ``find`` (card-shaped paper), ``title``
(the title above its rule, cut clean), ``ocr`` (Tesseract, one run) and ``names`` (which card, how surely)
are its stages.
"""

from vision.towns.goals.ocr import OcrUnavailable, tesseract_path
from vision.towns.goals.read import GoalCardRead, GoalReading, read_goal_cards

__all__ = ["GoalCardRead", "GoalReading", "OcrUnavailable", "read_goal_cards", "tesseract_path"]

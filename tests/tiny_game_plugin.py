"""Registers the tests' made-up third game (:mod:`tests.tiny_game`) when imported: what a server started
with ``SPRAWLSCAN_GAMES=tests.tiny_game_plugin`` does at start."""

from games import register
from tests.tiny_game import Tiny

register(Tiny())

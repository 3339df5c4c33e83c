"""Iron & Brass: the two-player battle game of mining, building and fighting on a square grid."""

from rules.iron_and_brass.engine import IronAndBrass

GAME = IronAndBrass()

__all__ = ["GAME", "IronAndBrass"]

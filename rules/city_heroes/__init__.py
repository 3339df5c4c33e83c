"""City Heroes: build an Italian city together, compete for influence, and beat the rival city."""

from rules.city_heroes.engine import CityHeroes

GAME = CityHeroes()

__all__ = ["GAME", "CityHeroes"]

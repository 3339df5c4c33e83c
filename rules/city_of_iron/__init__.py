"""City of Iron, the project's flagship game: `GAME` is what the registry loads."""

from rules.city_of_iron.engine import CityOfIron

GAME = CityOfIron()

__all__ = ["GAME", "CityOfIron"]

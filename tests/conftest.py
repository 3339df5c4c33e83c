"""The test-only game is registered for every test; real games register themselves."""

from rules import registry
from tests.support import highcard

registry.register(highcard.GAME)

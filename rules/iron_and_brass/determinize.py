"""Worlds for the information-set search (issue 21): what a seat of Iron & Brass cannot know.

Iron & Brass is a game of open information: the map, every piece, each side's gold, crew and advantage
tokens (how many are left, and what each played one was for) are on the table (the rules text has no
hand, deck or secret; 'Each player roll 2 dice', 'roll a D3' for mining and combat). Two facts are
still hidden from a seat:

- The dice to come. The state's Rng decides every future D3 (mining, attack and defence rolls), so
  every world gets a fresh one (`rules.search.reseeded`).
- The other player's half-made choice. A build or a concentrated fire is chosen in two steps (the item
  or the target first, then the square or the pair of units); the view shows it only to the player
  making it (`picking`), while everyone sees which kind of choice it is (the `/rules` topic says
  'building' or 'concentrated-fire'). For any seat that does not see it, the world holds one of the
  items or targets the current player could have picked of the same kind, drawn from the sorted list of
  them: those depend only on the public position, never on the true pick.
"""

from __future__ import annotations

import random

from rules.core import Seat
from rules.iron_and_brass import GAME
from rules.iron_and_brass.state import IronAndBrassState
from rules.search import reseeded


def determinize(state: IronAndBrassState, seat: Seat, rng: random.Random) -> IronAndBrassState:
    """A new state `seat` cannot tell from `state`: fresh dice, and the opponent's half-made choice
    resampled among those of its kind. The input is never changed."""
    world = reseeded(state, rng)
    if world.picking is not None and not _sees_picking(world, seat):
        options = picking_options(world, world.picking.partition(":")[0])
        if options:  # always: the true pick is one of them
            world.picking = rng.choice(options)
    return world


def _sees_picking(state: IronAndBrassState, seat: Seat) -> bool:
    """As the view: the half-made choice is shown to the current player during their actions only."""
    return seat == state.current and state.step == "play"


def picking_options(state: IronAndBrassState, kind: str) -> list[str]:
    """Every half-made choice of `kind` ('build' or 'aim') the current player could hold now, sorted.

    Picking changes nothing but `picking`, so the first-step menu of the position without it lists
    exactly the picks that were open, the true one among them."""
    probe = GAME.copy_state(state)
    probe.picking = None
    options = set()
    for choice in GAME.legal_actions(probe, probe.current):
        action = choice.action
        if kind == "build" and action.get("kind") == "pick":
            options.add(f"build:{action['item']}")
        elif kind == "aim" and action.get("kind") == "aim":
            options.add(f"aim:{str(action['target']).upper()}")
    return sorted(options)

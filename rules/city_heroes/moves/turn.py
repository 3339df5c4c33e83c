"""What a player's turn in a phase allows beside its phase action: round actions (bank, rival city,
influence) 'do not qualify as phase actions and must be done alongside another action (you may not
make only a Round Action and pass the phase)'.

A turn is one phase action, with round actions before it (a sale that pays for the tile) or during it
(before "End this action"). So a round action is refused while no phase action is under way and none
can be taken this turn whatever the trades bring: trades bring ducats and resources, never a Ready
worker, a tile within the worker limit, a free tile or somebody to trade with. A player in that case
passes without trading. The check runs only in games with the rule (`state.alongside`); games
created before it keep the earlier one (data/city_heroes/README.md)."""

from __future__ import annotations

from rules import words
from rules.city_heroes.moves.common import owned
from rules.city_heroes.moves.pillage import pillage_choices
from rules.city_heroes.state import CityHeroesState
from rules.core import Seat

State = CityHeroesState

RULE = (
    "Round actions 'must be done alongside another action (you may not make only a Round Action and "
    "pass the phase)'"
)


def out_of_reach(state: State, seat: Seat) -> str | None:
    """Why `seat` can take no phase action this turn, trades or not (None: it can, or one is under way)."""
    if state.acted is not None:
        return None
    player = state.players[seat]
    if state.phase == "expansion":
        if player.ready < 1:
            return "you have no Ready worker to buy a tile with"
        tiles = len(owned(state, seat))
        if tiles >= player.workers:
            return (
                f"you own {words.count(tiles, 'tile')} and have {words.count(player.workers, 'worker')}"
                " in all pools, so you may buy no more"
            )
        if all(tile.owner is not None for tile in state.tiles):
            return "every tile has an owner"
        return None
    if state.phase == "construction":
        return (
            None if player.ready >= 1 else "every Construction action needs a Ready worker, and you have none"
        )
    if state.phase == "interaction":
        if len(state.players) > 1 and any(
            other.ducats or any(other.stock.values()) for other in state.players
        ):
            return None  # a trade proposal needs no worker
        if pillage_choices(state, seat):
            return None
        if len(state.players) == 1:
            return "a solo game has nobody to trade with or pillage"
        return "there is nothing to trade and no tile you can pillage"
    return "the game is over"


def round_refusal(state: State, seat: Seat) -> str | None:
    """The sentence that refuses a round action now, or None when one is allowed."""
    if not state.alongside:
        return None
    why = out_of_reach(state, seat)
    if why is None:
        return None
    return f"{RULE}, and you have no phase action to take this turn: {why}. Pass instead."

"""Which events of City of Iron are urgent (a new post in the channel). The decisions are listed in
data/city_of_iron/README.md: a town taken from another player, a round's scoring, the secret purchases
revealed and the end of the game are; everything else is not. Line numbers are of
/work/shared/rules/city-of-iron-rulebook.txt."""

from __future__ import annotations

from typing import Any

from rules.city_of_iron import GAME
from rules.city_of_iron.data import game_data
from rules.city_of_iron.state import CityState
from rules.core import Event

from .helpers import arrange_all, find_building, give, new_game, place, start_actions

DATA = game_data()


def play(state: CityState, seat: int, action: dict[str, Any]) -> tuple[CityState, list[Event]]:
    applied = GAME.apply(state, seat, action)
    return applied.state, applied.events


def urgent(events: list[Event]) -> list[str]:
    return [event.text for event in events if event.urgent]


def _end_round(state: CityState) -> tuple[CityState, list[Event]]:
    """Everyone taxes until the actions step is over; the events of the move that ended the round."""
    events: list[Event] = []
    while state.phase == "actions":
        state, events = play(state, state.current, {"kind": "tax"})
        if state.phase == "actions":
            assert urgent(events) == []
    return state, events


def _purchase_nothing_and_bid(state: CityState) -> CityState:
    for seat in sorted(GAME.to_act(state)):
        state, _ = play(state, seat, {"kind": "done"})
    while state.phase == "bid":
        state, _ = play(state, state.current, GAME.legal_actions(state, state.current)[0].action)
    return state


def test_taking_a_town_from_another_player_is_urgent():
    """Towns (lines 708-714): 'you may conquer a Town that another player owns ... If you conquer a Town
    from another player, that player loses one income and the Goods listed on the card' - war between
    players: the loser must see it now."""
    state = start_actions(2)
    seat, other = state.current, 1 - state.current
    town = state.town_piles["1"][0]
    state.town_piles["1"].remove(town)
    state.players[other].towns.append(town)
    state.players[seat].hand = []
    attack = [give(state, seat, "captain"), give(state, seat, "soldier")]
    if DATA.towns[town].defense + 2 > 3:
        attack = [attack[0], give(state, seat, "iron-guard")]
    distance = [give(state, seat, "spy"), give(state, seat, "cartographer")]
    state, events = play(
        state, seat, {"kind": "attack", "town": town, "attackers": attack, "distance": distance}
    )
    assert town in state.players[seat].towns
    (line,) = urgent(events)
    assert (
        line.startswith(f"{state.players[seat].name} conquered ")
        and f"from {state.players[other].name}" in line
    )


def test_conquering_a_neutral_town_is_not_urgent():
    """Attack Town (lines 374-391): 'You may attack a Neutral Town Card' - an action against nobody, like
    a build: it joins the acting player's post."""
    state = start_actions(2)
    seat = state.current
    town = state.town_piles["1"][0]
    state.players[seat].hand = []
    attack = [give(state, seat, "captain"), give(state, seat, "soldier")]
    state, events = play(
        state,
        seat,
        {"kind": "attack", "town": town, "attackers": attack, "distance": [give(state, seat, "spy")]},
    )
    assert town in state.players[seat].towns
    assert urgent(events) == []


def test_a_rounds_scoring_is_urgent():
    """End Round, 1. Score (lines 418-439): 'If on the previous End Round phase you drew a Score Card, all
    players score Victory Points' - the VP of the round are news for everyone."""
    state = start_actions(2)
    place(state, 0, ["turnip-farm.1"])
    state.deck.insert(0, state.deck.pop(state.deck.index("score-A")))
    state, events = _end_round(state)
    assert state.score_due == ["score-A"]
    assert urgent(events) == [], "drawing the Score card only announces the next round's scoring"
    state = _purchase_nothing_and_bid(state)
    state, events = _end_round(state)
    assert state.scorings == 1
    assert [text.split(" (")[0] for text in urgent(events)] == ["Scoring 1"]


def test_revealed_purchases_are_urgent_the_secret_choices_are_not():
    """5. Purchase (lines 478-487): 'Players select the cards they want to buy in secret ... When all
    players declare they are finished, each player reveals all new cards' - like revealed bids, everyone
    must see them at once; choosing in secret is nobody else's business."""
    state, _ = _end_round(start_actions(2))
    assert state.phase == "purchase"
    state.players[0].coins = 6
    state, events = play(state, 0, {"kind": "select", "card": "explorer.0a"})
    assert urgent(events) == []
    state, events = play(state, 0, {"kind": "done"})
    assert urgent(events) == []
    state, events = play(state, 1, {"kind": "done"})
    (line,) = urgent(events)
    assert "bought Explorer" in line
    # Nobody bought anything: nothing to reveal, nothing urgent.
    state, _ = _end_round(start_actions(2))
    for seat in sorted(GAME.to_act(state)):
        state, events = play(state, seat, {"kind": "done"})
    assert "Nobody bought cards." in [event.text for event in events]
    assert urgent(events) == []


def test_the_game_end_is_urgent():
    """Game End (lines 509-519) and 'If this is the 3rd time Scoring, the game ends' (lines 438-439): the
    final scoring, the bonuses and the result."""
    state = start_actions(2)
    state.score_due = []
    state.scorings = 2
    state.box += [uid for uid in state.deck if uid != "score-C"]
    state.deck = ["score-C"]
    state, _ = _end_round(state)
    state = _purchase_nothing_and_bid(state)
    state, events = _end_round(state)
    assert GAME.result(state) is not None
    texts = urgent(events)
    assert texts[0].startswith("Scoring 3") and texts[-1].startswith("The game is over.")


def test_routine_actions_are_not_urgent():
    """Bids and actions (lines 286-355): the open turn-order bids, build, store, buy science, draw and tax
    are each seat's own move, edited in place or handed on; so is a round's end without scoring."""
    state = arrange_all(new_game(["P0", "P1"], seed=3))
    while state.phase in ("bid", "rebid"):
        state, events = play(state, state.current, GAME.legal_actions(state, state.current)[0].action)
        assert urgent(events) == []
    seat = state.current
    farm = find_building(state, "turnip-farm")
    moves = [
        (seat, {"kind": "store", "card": farm}),
        (1 - seat, {"kind": "science"}),
        (seat, {"kind": "build", "card": farm, "site": f"{seat}-1"}),
        (1 - seat, {"kind": "draw", "deck": "citizen"}),
    ]
    for mover, move in moves:
        state.players[mover].coins = 20
        state, events = play(state, mover, move)
        assert urgent(events) == [], move
    state, events = _end_round(state)
    assert state.phase == "purchase" and urgent(events) == []

"""Which events of City Heroes are urgent (a new post in the channel), and the private lines that tell
each party of a trade how it ended. The decisions are listed in data/city_heroes/README.md."""

from __future__ import annotations

from rules.city_heroes import GAME
from rules.core import Event

from .helpers import at_phase, give, own, play, texts


def urgent(events: list[Event]) -> list[str]:
    return [event.text for event in events if event.urgent]


def _cleanup(state):
    """Run the Cleanup by having everyone pass the Interaction phase; the events of the last pass."""
    state.phase = "interaction"
    state.acted = None
    events: list[Event] = []
    for _ in range(len(state.players)):
        state, events = play(state, state.current, {"kind": "pass"})
    return state, events


OFFER = {"kind": "propose", "partner": 1, "give": {"stone": 2}, "get": {"wheat": 1}}


def test_a_trade_offer_is_urgent_and_private_to_the_two_parties():
    """Network Trading (text line 295): 'The other player will then get an alert on their client, where they
    can accept or deny the trade request' - the partner must answer now."""
    state = at_phase("interaction", players=3)
    state, events = play(state, 0, OFFER)
    (event,) = events
    assert event.urgent and event.text == "Teal offered Red a trade."
    assert set(event.private) == {0, 1} and "stone" not in event.text


def test_a_declined_trade_tells_the_proposer_what_was_declined():
    """Network Trading (text line 295): 'accept or deny the trade request' - the proposer, who was waiting,
    reads who declined which offer (they made it: nothing hidden), and the answer gets a post."""
    state = at_phase("interaction", players=3)
    state, _ = play(state, 0, OFFER)
    state, events = play(state, 1, {"kind": "decline"})
    (event,) = events
    assert event.urgent and event.text == "Red declined Teal's trade."
    assert event.private == {0: "Red declined your trade offer (you give 2 stone; you get 1 wheat)."}
    assert GAME.to_act(state) == {0}


def test_an_accepted_trade_is_urgent_and_each_party_reads_its_own_side():
    """Trading (text lines 283-287): 'When the Trade button is pressed, the resources are exchanged' - goods
    changed hands between two players; each reads the trade from its own side, the others only who traded."""
    state = at_phase("interaction", players=3)
    state, _ = play(state, 0, OFFER)
    state, events = play(state, 1, {"kind": "accept"})
    (event,) = events
    assert event.urgent and event.text == "Red accepted Teal's trade."
    assert event.private == {
        0: "Red accepted your trade offer (you gave 2 stone; you got 1 wheat).",
        1: "You accepted Teal's trade offer (you gave 1 wheat; you got 2 stone).",
    }


def test_a_cancelled_offer_tells_the_partner_quietly():
    """Network Trading (text line 295): 'The initiator may also choose to cancel the request' - the partner,
    who saw the offer, reads which one was cancelled; nobody must react, so no new post."""
    state = at_phase("interaction", players=3)
    state, _ = play(state, 0, OFFER)
    state, events = play(state, 0, {"kind": "cancel"})
    (event,) = events
    assert not event.urgent
    assert event.private == {1: "Teal cancelled the trade offer to you (you give 1 wheat; you get 2 stone)."}


def test_pillaging_another_players_tile_is_urgent_the_loot_steps_are_not():
    """Pillaging a Tile (text lines 309-321) and Pillage Effects (lines 335-341): another player's tile is
    pillaged - they lose weapons, influence and resources, and 'will receive a summary of what was looted'.
    The declaration is the urgent line; the attacker's loot and casualty steps edit that post, and the
    summary reaches the defender as a private line."""
    state = at_phase("interaction", players=3, seat=0)
    own(state, 0, 11, 12)
    own(state, 2, 18, 19)
    state.tiles[10].garrison = 5
    state.tiles[17].garrison = 3
    state.tiles[17].building = "barracks"
    state.bank["weapons"] -= 8
    state, events = play(state, 0, {"kind": "pillage", "tile": 18, "weapons": {"11": 5}})
    assert len(urgent(events)) == 1 and urgent(events)[0].startswith("Teal pillaged Magenta's T18")
    assert state.raid is not None and GAME.to_act(state) == {0}
    state, events = play(state, 0, {"kind": "loot", "resource": "stone"})
    assert urgent(events) == []
    summary = next(event for event in events if event.private)
    assert set(summary.private) == {2}


def test_a_finished_public_work_is_urgent_its_stages_are_not():
    """Public Works (text lines 345-353): 'The public work provides no benefits until it is completed (the
    final stage is finished)' - once finished it changes every player's turns (City Hall ducats, Kronborg
    defence, gathering, prestige), so its completion gets a post; the foundation and stages do not."""
    state = at_phase("construction", players=2)
    own(state, 0, 18)
    own(state, 1, 12)
    give(state, 0, stone=20, planks=20, ducats=30)
    state.players[0].ready = state.players[0].workers = 20
    state, events = play(state, 0, {"kind": "found", "tile": 12, "work": "la-rotonda"})
    assert urgent(events) == []
    for stage in range(3):
        state, events = play(state, 0, {"kind": "stage", "tile": 12})
        assert bool(urgent(events)) == (stage == 2)
    assert "La Rotonda is finished" in urgent(events)[0]


def test_the_end_of_turn_prestige_check_and_the_game_end_are_urgent():
    """End of Turn (Cleanup) (text lines 207-235) and Winning the Game (line 108): the turn's incomes, the
    city's prestige against the rival's, and at the end 'if the City does not have more Prestige points than
    its neighbours, all players lose' - news for the whole table."""
    state = at_phase("interaction", players=2)
    state, events = _cleanup(state)
    assert [text.split(":")[0] for text in urgent(events)] == ["End of turn 1"]
    state = at_phase("interaction", players=2)
    state.turn = state.turns
    state, events = _cleanup(state)
    assert GAME.result(state) is not None
    assert [text.split(" ")[0] for text in urgent(events)] == ["End", "Game"]


def test_routine_moves_are_not_urgent():
    """Phases 1-2 (text lines 168-201) and Round Actions (lines 237-255): buying tiles, building, planting,
    the bank and the rival exchange, passing - one player's own actions, edited in place."""
    state = at_phase("expansion", players=2, clear=False)
    moves = [
        (0, {"kind": "buy", "tile": 18}),
        (0, {"kind": "end"}),
        (1, {"kind": "buy", "tile": 12}),
        (1, {"kind": "end", "and_pass": True}),
        (0, {"kind": "pass"}),  # the phase ends: Construction begins
    ]
    for seat, move in moves:
        state, events = play(state, seat, move)
        assert urgent(events) == [], move
    assert state.phase == "construction"
    state = at_phase("construction", players=2)
    own(state, 0, 18)
    give(state, 0, stone=10, planks=2, ducats=20)
    state, events = play(state, 0, {"kind": "bank", "resource": "stone", "count": 1, "sell": True})
    assert urgent(events) == [] and "sold 1 stone to the bank" in texts(events)
    state, events = play(state, 0, {"kind": "build", "tile": 18, "building": "school"})
    assert urgent(events) == []

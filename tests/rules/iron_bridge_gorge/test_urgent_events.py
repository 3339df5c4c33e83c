"""Which events of Iron Bridge Gorge are urgent (a new post in the channel), and the private lines that
tell each party of a trade how it ended. The decisions are listed in data/iron_bridge_gorge/README.md."""

from __future__ import annotations

from rules.core import Event
from rules.iron_bridge_gorge import GAME

from .helpers import at_turn, new_game, play, texts


def urgent(events: list[Event]) -> list[str]:
    return [event.text for event in events if event.urgent]


def test_bids_revealed_are_urgent_the_secret_bids_are_not():
    """INITIATIVE STEP (text lines 72-77): 'Each player bids coins to see who goes first. Highest bid gets
    the first turn' - the bids are secret until the last one, then revealed together: everyone must see
    the auction's result (and the turn order it sets) at once."""
    state = new_game(3)
    state, events = play(state, 0, {"kind": "bid", "amount": 2})
    assert urgent(events) == []
    state, events = play(state, 1, {"kind": "bid", "amount": 1})
    assert urgent(events) == []
    state, events = play(state, 2, {"kind": "bid", "amount": 0})
    assert urgent(events) == ["Bids revealed: Alice 2, Bob 1, Carol 0."]
    assert GAME.to_act(state) == {0}


def test_a_proposal_is_urgent_and_names_the_offer_to_the_two_parties_only():
    """TRADE PHASE (text lines 103-106): 'You may trade with your opponents' - the partner must answer the
    offer, so it is posted at once; its contents stay with the two parties."""
    state = at_turn(3, hands={0: ["canals"]})
    offer = {"kind": "propose", "partner": 1, "give": {"hand": ["canals"]}, "get": {"coins": 5}}
    state, events = play(state, 0, offer)
    (event,) = events
    assert event.urgent and event.text == "Alice proposed a trade to Bob."
    assert set(event.private) == {0, 1}
    assert "Canals" not in event.text


def test_a_declined_trade_tells_the_proposer_what_was_declined():
    """TRADE PHASE (text line 104): the partner answers; the proposer, who was waiting, reads who declined
    which offer (they made it, so it hides nothing), and the table gets a post: the answer is news."""
    state = at_turn(3, hands={0: ["canals"]})
    state.players[2].vp = 1
    offer = {"kind": "propose", "partner": 2, "give": {"hand": ["canals"]}, "get": {"coins": 5, "vp": 1}}
    state, _ = play(state, 0, offer)
    state, events = play(state, 2, {"kind": "decline"})
    (event,) = events
    assert event.urgent
    assert event.text == "Carol declined Alice's trade."
    assert event.private == {
        0: "Carol declined your trade offer (you give Canals (from hand); you get 5 coins, 1 VP)."
    }
    assert GAME.to_act(state) == {0}


def test_an_accepted_trade_is_urgent_and_each_party_reads_its_own_side():
    """TRADE PHASE (text line 105): 'You may trade coins, cards in hand, resources in play, VP's' - goods
    changed hands in front of everyone. The public line only counts hand cards; each party reads the
    whole trade from its own side."""
    state = at_turn(3, hands={0: ["canals"], 1: ["farmland"]}, in_play={1: ["coal-mine"]})
    offer = {
        "kind": "propose",
        "partner": 1,
        "give": {"coins": 3, "hand": ["canals"]},
        "get": {"hand": ["farmland"], "in_play": ["coal-mine"]},
    }
    state, _ = play(state, 0, offer)
    state, events = play(state, 1, {"kind": "accept"})
    (event,) = events
    assert event.urgent
    assert "Canals" not in event.text and "Farmland" not in event.text
    assert event.private == {
        0: "Bob accepted your trade offer (you gave 3 coins, Canals (from hand); "
        "you got Farmland (from hand), Coal Mine (in play)).",
        1: "You accepted Alice's trade offer (you gave Farmland (from hand), Coal Mine (in play); "
        "you got 3 coins, Canals (from hand)).",
    }


def test_a_withdrawn_offer_tells_the_partner_quietly():
    """Decision: the proposer may withdraw an open offer. The partner, who saw the offer, reads which one
    was withdrawn; nobody has to react (the proposer acts on), so it is not urgent."""
    state = at_turn(3, hands={0: ["canals"]})
    offer = {"kind": "propose", "partner": 1, "give": {"coins": 2}, "get": {"hand": ["roads"]}}
    state, _ = play(state, 0, offer)
    state, events = play(state, 0, {"kind": "cancel"})
    (event,) = events
    assert not event.urgent
    assert event.private == {
        1: "Alice withdrew the trade offer to you (you give Roads (from hand); you get 2 coins)."
    }


def test_round_scoring_is_urgent_when_someone_scores():
    """SCORING STEP (text lines 81-86): 'The player with the most Fuel Resources in play gets 2 VP' ... -
    VP handed out at the end of the round are news for everyone; a Scoring Step where nobody scores is
    not worth a post of its own (the next round's bids are a handoff anyway)."""
    state = at_turn(2, in_play={0: ["coal-mine"]})
    state, _ = play(state, 0, {"kind": "end_turn"})
    state, _ = play(state, 1, {"kind": "take", "card": state.row[0]})
    state, events = play(state, 1, {"kind": "end_turn"})
    assert urgent(events) == ["Scoring: Alice +2 VP for most Fuel."]
    assert state.round == 2 and state.step == "initiative"
    # Nobody has resources: the same step, not urgent.
    state = at_turn(2)
    state, _ = play(state, 0, {"kind": "end_turn"})
    state, _ = play(state, 1, {"kind": "take", "card": state.row[0]})
    state, events = play(state, 1, {"kind": "end_turn"})
    assert "Scoring: no one has resources yet." in texts(events)
    assert urgent(events) == []


def test_the_game_end_is_urgent():
    """GAME END (text lines 10-11): 'The game ends after 25 Rounds' (here 1): the result is for everyone."""
    state = new_game(2, rounds=1)
    for seat in (0, 1):
        state, _ = play(state, seat, {"kind": "bid", "amount": 0})
    events: list[Event] = []
    while GAME.result(state) is None:
        seat = next(iter(GAME.to_act(state)))
        choice = next(
            c for c in GAME.legal_actions(state, seat) if c.key.startswith(("take", "end-turn", "discard"))
        )
        state, events = play(state, seat, choice.action)
    assert any(event.urgent and event.text.startswith("Game over after 1 round.") for event in events)


def test_routine_moves_are_not_urgent():
    """TURN SEQUENCE (text lines 98-121): taking an opportunity card, drawing, building, the bank and ending
    a turn are the acting player's own business: the post is edited in place."""
    state = at_turn(3, phase="decision", hands={0: ["canals"]}, coins={0: 30})
    moves = [
        {"kind": "take", "card": state.row[0]},
        {"kind": "draw"},
        {"kind": "build", "card": "canals"},
        {"kind": "loan"},
        {"kind": "sell", "card": "canals", "source": "play"},
        {"kind": "end_turn"},
    ]
    for move in moves:
        state, events = play(state, 0, move)
        assert urgent(events) == [], move
    assert GAME.to_act(state) == {1}

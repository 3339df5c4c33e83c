"""The round and the game: setup, the first round's rolls, the phases' order, the end step, the game end,
and the contract (illegal moves refused, every listed choice accepted)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.core import Rejection, RuleError
from rules.iron_bridge_gorge import GAME
from rules.iron_bridge_gorge.data import catalogue

from .helpers import all_bid, at_turn, dump, new_game, play, rejected, texts


def test_game_info():
    """INTRODUCTION: 'Card game for 2-4+ players' (decision: 2 to 6); GAME END: 'after 25 Rounds'."""
    info = GAME.info
    assert (info.id, info.name, info.min_players, info.max_players) == (
        "iron-bridge-gorge",
        "Iron Bridge Gorge",
        2,
        6,
    )
    assert info.hidden_information and info.randomness and info.simultaneous
    assert GAME.resolve_options({}) == {"rounds": 25}
    with pytest.raises(RuleError) as raised:
        GAME.setup(["Solo"], {}, 1)
    assert raised.value.reason == Rejection.BAD_OPTIONS


def test_setup_gives_ten_coins_and_deals_the_first_development():
    """SETUP: 'Each player starts with 10 coins'; DEVELOPMENT STEP: 'Flip over the top X + 1D6 cards of
    the deck. X = the number of players.' Round 1 starts with everyone to bid."""
    state = new_game(4, seed=7)
    assert [player.coins for player in state.players] == [10] * 4
    assert state.round == 1 and state.step == "initiative"
    assert 4 + 1 <= len(state.row) <= 4 + 6
    assert Counter(state.deck + state.row) == Counter(catalogue().counts())
    assert GAME.to_act(state) == {0, 1, 2, 3}


def test_setup_is_deterministic_per_seed():
    assert dump(new_game(3, seed=5)) == dump(new_game(3, seed=5))
    assert dump(new_game(3, seed=5)) != dump(new_game(3, seed=6))


def test_round_one_rolls_are_told_like_every_later_round():
    """DEVELOPMENT STEP: 'Flip over the top X + 1D6 cards of the deck. X = the number of players.' EVENT
    STEP: 'Roll 1D6 once on the Event Table.' Round 1's rolls happen in `setup`, which has no events:
    `opening_events` tells them in the words round 2's rolls are told in."""
    import re

    from rules.iron_bridge_gorge.moves.revenue import EVENTS

    state = new_game(3, seed=11)
    opening = GAME.opening_events(state)
    assert all(event.reveals for event in opening)
    development = re.fullmatch(
        r"Round 1: development roll (\d), (\d+) opportunity cards: (.+)\.", opening[0].text
    )
    assert development is not None
    roll, flipped = int(development[1]), int(development[2])
    assert 1 <= roll <= 6 and flipped == 3 + roll == len(state.row)
    assert all(GAME.cards[card].name in development[3] for card in state.row)
    assert opening[1].text.startswith("Event roll ") and EVENTS[state.event][0] in opening[1].text
    assert GAME.opening_events(GAME.load_state(dump(state))) == opening, "a saved game still tells them"

    later: list = []
    state.discard, state.row = state.discard + state.row, []  # the end of round 1 clears the row
    GAME._start_round(state, later)
    assert re.fullmatch(r"Round 2: development roll \d, \d+ opportunity cards: .+\.", later[0].text)
    assert later[1].text.startswith("Event roll ")


def test_phases_only_move_forward():
    """TURN SEQUENCE: the phases come in order; acting in a later phase ends the earlier ones."""
    state = at_turn(hands={0: ["coal-mine", "farmland"]}, coins={0: 30})
    state, _ = play(state, 0, {"kind": "build", "card": "coal-mine"})
    rejected(state, 0, {"kind": "draw"}, "too late in your turn to draw")
    rejected(
        state, 0, {"kind": "propose", "partner": 1, "give": {"coins": 1}}, "too late in your turn to propose"
    )
    state, _ = play(state, 0, {"kind": "sell", "card": "farmland"})
    assert state.phase == "bank"
    rejected(state, 0, {"kind": "build", "card": "coal-mine"}, "too late in your turn to build")


def test_end_step_discards_the_row_and_the_next_round_begins():
    """END STEP: 'Discard all remaining Opportunity cards.' ROUNDS: each player gets one turn a round."""
    state = at_turn(2)
    state.discard, state.row = state.row, ["canals", "roads"]
    state, _ = play(state, 0, {"kind": "end_turn"})
    assert GAME.to_act(state) == {1} and state.phase == "decision"
    state, _ = play(state, 1, {"kind": "take", "card": "roads"})
    state, events = play(state, 1, {"kind": "end_turn"})
    assert "canals" in state.discard
    assert state.round == 2 and state.step == "initiative"
    assert "Discarded opportunity cards: Canals." in texts(events)
    assert "Round 2: development roll" in texts(events)


def test_the_game_ends_after_the_last_round():
    """GAME END: 'The game ends after 25 Rounds' (here the rounds option set to 1); VICTORY: most VP wins."""
    state = new_game(2, rounds=1)
    state, _ = all_bid(state, [0, 1])
    while GAME.result(state) is None:
        seat = next(iter(GAME.to_act(state)))
        choice = next(
            c for c in GAME.legal_actions(state, seat) if c.key.startswith(("take", "end-turn", "discard"))
        )
        state, _ = play(state, seat, choice.action)
    result = GAME.result(state)
    assert state.round == 1 and state.step == "over"
    assert GAME.to_act(state) == set()
    rejected(state, 0, {"kind": "end_turn"}, "This game is over")
    assert result.scores.keys() == {0, 1}


def test_illegal_moves_raise_and_leave_the_state_alone():
    """Every refusal is a RuleError with a sentence, and the state is untouched."""
    state = at_turn(hands={0: ["porcelain-works"]}, coins={0: 6})
    rejected(state, 1, {"kind": "end_turn"}, "not your turn")
    rejected(state, 0, {"kind": "build", "card": "porcelain-works"}, "costs 7 coins; you have 6 coins")
    rejected(state, 0, {"kind": "build", "card": "canals"}, "no Canals in your hand")
    rejected(state, 0, {"kind": "build", "card": "nonsense"}, "no card called")
    rejected(state, 0, {"kind": "accept"}, "no trade offer")
    rejected(state, 0, {"kind": "discard", "card": "porcelain-works"}, "only discard at the end")
    rejected(state, 0, {"kind": "sell", "card": "canals"}, "no such card in your hand")
    rejected(state, 0, {"kind": "take", "card": "canals"}, "already took")
    rejected(state, 0, {"kind": "bid", "amount": 0}, "bidding is over")
    with pytest.raises(RuleError) as raised:
        GAME.apply(state, 0, {"kind": "fly"})
    assert raised.value.reason == Rejection.MALFORMED


def test_every_listed_choice_is_accepted():
    """Every Choice offered is a move `apply` takes; keys are unique and there is always a way to stop."""
    state = at_turn(
        hands={0: ["canals", "coal-mine", "iron-bridge"]},
        in_play={0: ["farmland"], 1: ["clay-mine", "roads"]},
        coins={0: 25},
    )
    state.players[0].loan = True
    choices = GAME.legal_actions(state, 0)
    assert len({choice.key for choice in choices}) == len(choices)
    assert "end-turn" in [choice.key for choice in choices]
    for choice in choices:
        GAME.apply(state, 0, choice.action)

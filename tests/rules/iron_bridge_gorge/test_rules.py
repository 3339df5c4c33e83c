"""The rule text step by step: setup, development, initiative, the six phases, scoring, the end."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.core import Rejection, RuleError
from rules.iron_bridge_gorge import GAME
from rules.iron_bridge_gorge.data import catalogue

from .helpers import at_turn, dice_rng, dump, keys, new_game, play, rejected, texts


def _all_bid(state, bids):
    events = []
    for seat, amount in enumerate(bids):
        state, more = play(state, seat, {"kind": "bid", "amount": amount})
        events += more
    return state, events


# ---- game facts and setup -----------------------------------------------------------------------
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


def test_development_reshuffles_the_discard_when_the_deck_runs_out():
    """DEVELOPMENT STEP: 'If the deck runs out, shuffle the discard and draw from it.'"""
    state = new_game(2)
    state.discard = state.deck[2:] + state.row
    state.deck = state.deck[:2]
    state.row = []
    state.rng = dice_rng(6)
    events: list = []
    GAME._start_round(state, events)
    assert len(state.row) == 2 + 6
    assert "shuffled into a new deck" in texts(events)
    assert state.discard == []


# ---- initiative -----------------------------------------------------------------------------------
def test_bids_are_secret_until_the_last_seat_bids():
    """INITIATIVE STEP: 'Each player bids coins' - decision: in secret, revealed together."""
    state = new_game(3)
    state, events = play(state, 1, {"kind": "bid", "amount": 4})
    assert events[0].text == "Bob placed a secret bid."
    assert events[0].private == {1: "You bid 4."}
    assert GAME.to_act(state) == {0, 2}
    public = GAME.view(state, None)
    assert [seat.bid for seat in public.seats] == [None, None, None]
    assert [seat.bid_placed for seat in public.seats] == [False, True, False]
    assert GAME.view(state, 1).my_bid == 4 and GAME.view(state, 0).my_bid is None
    assert GAME.view(state, 0).seats[1].bid is None
    rejected(state, 1, {"kind": "bid", "amount": 2}, "not your turn")


def test_highest_bid_goes_first_then_clockwise_and_bids_are_lost():
    """INITIATIVE STEP: 'Highest bid gets the first turn... Other players get to go clockwise... All Bid
    money is lost.'"""
    state = new_game(4)
    bank = state.bank
    state, events = _all_bid(state, [1, 0, 3, 2])
    assert state.order == [2, 3, 0, 1]
    assert [player.coins for player in state.players] == [9, 10, 7, 8]
    assert state.bank == bank + 6
    assert state.last_bids == [1, 0, 3, 2]
    assert "Bids revealed: Alice 1, Bob 0, Carol 3, Dave 2." in texts(events)
    assert GAME.to_act(state) == {2}


def test_tied_bids_roll_high_on_a_die():
    """INITIATIVE STEP: 'If tied, roll high on 1D6 to see who goes first.' (rerolled while still tied)."""
    state = new_game(3)
    state.rng = dice_rng(4, 6)  # Alice and Carol tie at 2: Alice rolls 4, Carol 6
    state, events = _all_bid(state, [2, 1, 2])
    assert state.order == [2, 0, 1]
    assert "Tie at 2: Alice rolls 4, Carol rolls 6." in texts(events)
    state = new_game(2)
    state.rng = dice_rng(3, 3, 1, 5)
    state, events = _all_bid(state, [0, 0])
    assert state.order == [1, 0]
    assert texts(events).count("Tie at 0") == 2


def test_bids_offer_every_amount_up_to_the_coins():
    state = new_game(2)
    assert keys(state, 0) == [f"bid:{amount}" for amount in range(11)]
    rejected(state, 0, {"kind": "bid", "amount": 11}, "you have 10 coins")
    rejected(state, 0, {"kind": "build", "card": "coal-mine"}, "bidding for initiative")


def test_a_seat_without_coins_bids_zero_without_being_asked():
    state = at_turn(2, coins={0: 0})
    state.rng = dice_rng(1, 1)
    GAME._start_round(state, [])
    assert state.players[0].bid == 0
    assert GAME.to_act(state) == {1}


# ---- the turn -------------------------------------------------------------------------------------
def test_decision_phase_takes_one_opportunity_card():
    """DECISION PHASE: 'Take any one card from the Opportunity Row, and put it in your hand.'"""
    state = at_turn(phase="decision")
    state.row = ["coal-mine", "farmland", "coal-mine"]
    assert keys(state, 0) == ["take:coal-mine", "take:farmland"]
    rejected(state, 0, {"kind": "end_turn"}, "First take one opportunity card")
    rejected(state, 0, {"kind": "take", "card": "canals"}, "not in the opportunity row")
    state, _ = play(state, 0, {"kind": "take", "card": "farmland"})
    assert state.players[0].hand == ["farmland"] and state.row == ["coal-mine", "coal-mine"]
    assert state.phase == "expansion"
    rejected(state, 0, {"kind": "take", "card": "coal-mine"}, "already took")


def test_expansion_draws_for_ten_and_keeps_the_card_private():
    """EXPANSION PHASE: 'You may pay 10 coin to draw 1 card from the deck... multiple times.'"""
    state = at_turn(coins={0: 20})
    top = state.deck[-1]
    state, events = play(state, 0, {"kind": "draw"})
    assert state.players[0].coins == 10 and state.players[0].hand == [top]
    assert events[0].text == "Alice paid 10 to draw a card." and events[0].reveals
    assert catalogue()[top].name in events[0].private[0]
    state, _ = play(state, 0, {"kind": "draw"})
    assert "draw" not in keys(state, 0)
    rejected(state, 0, {"kind": "draw"}, "costs 10; you have 0")


@pytest.mark.parametrize(("card", "cost"), [("coal-mine", 5), ("clay-mine", 3), ("porcelain-works", 7)])
def test_build_costs_5_unskilled_3_skilled_7(card: str, cost: int):
    """BUILD PHASE: 'pay 5 coin to put a card into play... Unskilled resources cost 3 coin. Skilled
    resources cost 7 coin.'"""
    state = at_turn(hands={0: [card]})
    assert f"build:{card}" in keys(state, 0)
    state, events = play(state, 0, {"kind": "build", "card": card})
    assert state.players[0].coins == 10 - cost and state.players[0].in_play == [card]
    assert state.phase == "build"
    assert texts(events).endswith(f"for {cost}.")


def test_land_lease_makes_other_resources_one_cheaper():
    """BUILD PHASE: 'If you have a Land Lease resource in play other resources cost 1 less to play.'
    Decisions: two Land Leases do not stack; a Land Lease and the Iron Bridge are not discounted."""
    state = at_turn(in_play={0: ["land-lease"]}, hands={0: ["coal-mine", "clay-mine", "land-lease"]})
    labels = {choice.key: choice.label for choice in GAME.legal_actions(state, 0)}
    assert labels["build:coal-mine"] == "Build Coal Mine for 4"
    assert labels["build:clay-mine"] == "Build Clay Mine for 2"
    assert labels["build:land-lease"] == "Build Land Lease for 5"


def test_iron_bridge_needs_a_wrought_iron_forge_costs_20_and_awards_5_vp():
    """NOTES: 'To build the Iron Bridge, you must have Wrought Iron Forge in play. The Bridge costs 20
    Coin and gives a one time award of 5 VP.'"""
    state = at_turn(hands={0: ["iron-bridge"]}, coins={0: 30}, in_play={0: ["land-lease"]})
    assert "build:iron-bridge" not in keys(state, 0)
    rejected(state, 0, {"kind": "build", "card": "iron-bridge"}, "needs Wrought Iron Forge in play")
    state = at_turn(hands={0: ["iron-bridge"]}, coins={0: 19}, in_play={0: ["wrought-iron-forge"]})
    rejected(state, 0, {"kind": "build", "card": "iron-bridge"}, "costs 20; you have 19")
    state = at_turn(
        hands={0: ["iron-bridge"]}, coins={0: 20}, in_play={0: ["wrought-iron-forge", "land-lease"]}
    )
    state, events = play(state, 0, {"kind": "build", "card": "iron-bridge"})
    assert (state.players[0].coins, state.players[0].vp) == (0, 5)
    assert "built Iron Bridge for 20 and gained 5 VP" in texts(events)


def test_patents_award_3_vp_once():
    """NOTES: 'A Patents Resource gives you a one time award of 3 VP.' (decision: when built; a Patents
    resource received in a trade awards nothing)."""
    state = at_turn(hands={0: ["patents"]}, in_play={1: ["patents"]})
    state, _ = play(state, 0, {"kind": "build", "card": "patents"})
    assert state.players[0].vp == 3
    state = at_turn(in_play={1: ["patents"]}, phase="trade")
    state, _ = play(
        state, 0, {"kind": "propose", "partner": 1, "give": {"coins": 5}, "get": {"in_play": ["patents"]}}
    )
    state, _ = play(state, 1, {"kind": "accept"})
    assert state.players[0].in_play == ["patents"] and state.players[0].vp == 0


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


# ---- bank -----------------------------------------------------------------------------------------
def test_bank_phase_interest_loan_and_repayment():
    """BANK PHASE: 'If you have a Loan, you must pay the Bank 1 coin interest. You may take a loan from the
    Bank for 10 coin. (You may only have one such loan at a time) You may pay back your loan.'"""
    state = at_turn()
    state, events = play(state, 0, {"kind": "loan"})
    assert state.players[0].loan and state.players[0].coins == 20
    assert "interest" not in texts(events)
    rejected(state, 0, {"kind": "loan"}, "only have one loan")
    assert "loan" not in keys(state, 0)
    state, _ = play(state, 0, {"kind": "repay"})
    assert not state.players[0].loan and state.players[0].coins == 10
    rejected(state, 0, {"kind": "repay"}, "no loan to repay")


def test_interest_is_due_even_when_the_bank_phase_is_skipped():
    state = at_turn(coins={0: 4})
    state.players[0].loan = True
    state, events = play(state, 0, {"kind": "end_turn"})
    assert state.players[0].coins == 3
    assert "Alice paid 1 coin interest on the loan." in texts(events)


def test_repaying_counts_the_interest_first():
    state = at_turn(coins={0: 10})
    state.players[0].loan = True
    assert "repay" not in keys(state, 0)
    rejected(state, 0, {"kind": "repay"}, "after the interest")
    state.players[0].coins = 11
    state, _ = play(state, 0, {"kind": "repay"})
    assert state.players[0].coins == 0 and not state.players[0].loan


def test_interest_is_waived_without_coins():
    """Decision: a player with no coin cannot pay the interest; the bank waives it."""
    state = at_turn(coins={0: 0})
    state.players[0].loan = True
    state, events = play(state, 0, {"kind": "end_turn"})
    assert "waives" in texts(events)


def test_sell_cards_and_resources_for_five():
    """BANK PHASE: 'You may sell Cards and Resources to the Bank for 5 coins each.'"""
    state = at_turn(hands={0: ["farmland"]}, in_play={0: ["coal-mine"]})
    assert {"sell:hand:farmland", "sell:play:coal-mine"} <= set(keys(state, 0))
    state, _ = play(state, 0, {"kind": "sell", "card": "farmland", "source": "hand"})
    state, _ = play(state, 0, {"kind": "sell", "card": "coal-mine", "source": "play"})
    assert state.players[0].coins == 20
    assert state.players[0].hand == [] and state.players[0].in_play == []
    assert state.discard[-2:] == ["farmland", "coal-mine"]
    rejected(state, 0, {"kind": "sell", "card": "coal-mine", "source": "play"}, "no such card in play")


# ---- end phase, scoring, end step ---------------------------------------------------------------
def test_end_phase_discards_down_to_five():
    """END PHASE: 'Max hand size is 5 cards. Discard excess cards.'"""
    hand = ["coal-mine", "coal-mine", "farmland", "canals", "roads", "tunnels", "patents"]
    state = at_turn(hands={0: hand})
    state, _ = play(state, 0, {"kind": "end_turn"})
    assert state.phase == "discard" and GAME.to_act(state) == {0}
    assert keys(state, 0) == [f"discard:{card}" for card in dict.fromkeys(hand)]
    rejected(state, 0, {"kind": "build", "card": "roads"}, "discard first")
    state, _ = play(state, 0, {"kind": "discard", "card": "tunnels"})
    assert state.phase == "discard"
    state, _ = play(state, 0, {"kind": "discard", "card": "coal-mine"})
    assert len(state.players[0].hand) == 5
    assert GAME.to_act(state) == {1}


def test_scoring_step_majorities_and_ties():
    """SCORING STEP: most Fuel, Iron, Transportation 2 VP; most Clay, Limestone 1 VP. Decision: a tie for
    most scores nothing, and nobody scores a type no one has."""
    state = at_turn(
        3,
        in_play={
            0: ["coal-mine", "timber-yard", "iron-ore-mine", "clay-mine"],
            1: ["coal-mine", "iron-ore-mine", "canals", "limestone-quarry"],
            2: ["iron-ore-mine"],
        },
    )
    events: list = []
    GAME._score(state, events)
    assert [player.vp for player in state.players] == [2 + 1, 2 + 1, 0]
    assert "Iron tied, no one scores" in texts(events)


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
    state, _ = _all_bid(state, [0, 1])
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


def test_result_ties_are_broken_by_coins_after_loans_then_resources():
    """Decision: equal VP are ordered by coins minus an unpaid loan, then by resources in play."""
    state = at_turn(3)
    state.step = "over"
    for player, (vp, coins, loan, cards) in zip(
        state.players, [(5, 12, True, []), (5, 3, False, []), (2, 40, False, [])], strict=True
    ):
        player.vp, player.coins, player.loan, player.in_play = vp, coins, loan, cards
    result = GAME.result(state)
    assert result.ranking == [[1], [0], [2]]
    assert result.reason == "Bob and Alice tie on 5 VP; Bob wins on coins after any loan, 3 to 2."
    state.players[0].loan = False
    state.players[0].coins = 3
    assert GAME.result(state).ranking == [[0, 1], [2]]
    assert GAME.result(state).reason == (
        "Alice and Bob share the win with 5 VP, 3 coins after any loan and 0 resources in play each."
    )
    state.players[1].in_play = ["coal-mine"]
    assert GAME.result(state).reason == (
        "Bob and Alice tie on 5 VP and 3 coins after any loan; Bob wins with more resources in play, 1 to 0."
    )
    state.players[1].vp = 6
    assert GAME.result(state).reason == "Bob wins with the most VP, 6 to Alice's 5."


# ---- trade ----------------------------------------------------------------------------------------
def test_trade_proposal_accepted_moves_everything_both_ways():
    """TRADE PHASE: 'You may trade coins, cards in hand, resources in play, VP's... multiple trades.'"""
    state = at_turn(hands={0: ["canals"], 1: ["farmland"]}, in_play={1: ["coal-mine"]})
    state.players[1].vp = 4
    offer = {
        "kind": "propose",
        "partner": 1,
        "give": {"coins": 3, "hand": ["canals"]},
        "get": {"vp": 2, "hand": ["farmland"], "in_play": ["coal-mine"]},
    }
    state, events = play(state, 0, offer)
    assert events[0].text == "Alice proposed a trade to Bob."
    assert set(events[0].private) == {0, 1} and "Canals" in events[0].private[1]
    assert GAME.to_act(state) == {0, 1}
    assert keys(state, 1) == ["accept", "decline"] and keys(state, 0) == ["cancel"]
    assert GAME.view(state, None).proposal.give is None
    assert GAME.view(state, 2).proposal.give is None
    assert GAME.view(state, 1).proposal.give.hand == ["canals"]
    rejected(state, 0, {"kind": "end_turn"}, "Wait for Bob")
    rejected(state, 1, {"kind": "bid", "amount": 1}, "bidding is over")
    state, events = play(state, 1, {"kind": "accept"})
    alice, bob = state.players[0], state.players[1]
    assert (alice.coins, alice.vp, alice.hand, alice.in_play) == (7, 2, ["farmland"], ["coal-mine"])
    assert (bob.coins, bob.vp, bob.hand, bob.in_play) == (13, 2, ["canals"], [])
    assert "Canals" not in events[0].text and "1 card from hand" in events[0].text
    assert "Canals" in events[0].private[0]
    assert state.proposal is None and state.phase == "trade" and GAME.to_act(state) == {0}


def test_trade_declined_or_withdrawn_changes_nothing():
    state = at_turn(hands={0: ["canals"]})
    offer = {"kind": "propose", "partner": 2, "give": {"hand": ["canals"]}, "get": {"coins": 5}}
    assert {
        "kind": "propose",
        "partner": 2,
        "give": {"coins": 0, "vp": 0, "hand": ["canals"], "in_play": []},
        "get": {"coins": 5, "vp": 0, "hand": [], "in_play": []},
    } in [c.action for c in GAME.legal_actions(state, 0)]
    proposed, _ = play(state, 0, offer)
    declined, events = play(proposed, 2, {"kind": "decline"})
    assert events[0].text == "Carol declined Alice's trade."
    cancelled, _ = play(proposed, 0, {"kind": "cancel"})
    for after in (declined, cancelled):
        assert after.proposal is None and after.players == state.players


def test_a_proposal_never_reveals_the_partners_hand():
    """Asking for a card the partner lacks is not refused at proposal time (that would tell the proposer
    what the partner holds); the partner simply cannot accept it."""
    state = at_turn(hands={1: ["roads"]})
    state, _ = play(
        state, 0, {"kind": "propose", "partner": 1, "give": {"coins": 2}, "get": {"hand": ["canals"]}}
    )
    assert keys(state, 1) == ["decline"]
    rejected(state, 1, {"kind": "accept"}, "You have not got Canals in hand")


@pytest.mark.parametrize(
    ("offer", "message"),
    [
        ({"partner": 0, "give": {"coins": 1}}, "another player"),
        ({"partner": 7, "give": {"coins": 1}}, "another player"),
        ({"partner": 1}, "must move something"),
        ({"partner": 1, "give": {"coins": 11}}, "You have only 10 coins"),
        ({"partner": 1, "give": {"vp": 1}}, "You have only 0 VP"),
        ({"partner": 1, "give": {"hand": ["canals"]}}, "You have not got Canals in hand"),
        ({"partner": 1, "get": {"in_play": ["canals"]}}, "Bob has not got Canals in play"),
        ({"partner": 1, "get": {"coins": 50}}, "Bob has only 10 coins"),
        ({"partner": 1, "get": {"hand": ["unobtainium"]}}, "no card called 'unobtainium'"),
    ],
)
def test_impossible_proposals_are_refused(offer, message):
    rejected(at_turn(), 0, {"kind": "propose", **offer}, message)


# ---- illegal moves --------------------------------------------------------------------------------
def test_illegal_moves_raise_and_leave_the_state_alone():
    """Every refusal is a RuleError with a sentence, and the state is untouched."""
    state = at_turn(hands={0: ["porcelain-works"]}, coins={0: 6})
    rejected(state, 1, {"kind": "end_turn"}, "not your turn")
    rejected(state, 0, {"kind": "build", "card": "porcelain-works"}, "costs 7; you have 6")
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

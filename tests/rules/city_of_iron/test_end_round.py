"""End Round: the building row, income, Score cards, the game's end, card draws and Snyle."""

from __future__ import annotations

import pytest

from rules.city_of_iron import GAME
from rules.city_of_iron.data import game_data
from rules.city_of_iron.scoring import goods_totals, income
from rules.core import Rejection, RuleError

from .helpers import act, end_round, place, rejected, start_actions

DATA = game_data()


def test_end_round_discards_four_slides_and_refills() -> None:
    """End Round: "Discard the four left-most Building Cards ... Slide the remaining ... Draw new Building Cards"."""
    state = start_actions(2)
    row = list(state.row)
    state.row[1] = None
    state = end_round(state)
    assert state.discard == [row[0], row[2], row[3], row[4]]
    assert state.row[:2] == row[5:7] and None not in state.row


def test_income_base_goods_cards_and_first_place_ties() -> None:
    """Collect Income: base 2, "one coin for each card you own that produces goods", "If players are tied for 1st
    place on a Good, both collect the bonus coins"."""
    state = start_actions(2)
    for player in state.players:
        player.cities[0].buildings = ["moss-garden.1"] if player is state.players[0] else ["moss-garden.2"]
    assert [income(state, seat) for seat in (0, 1)] == [2 + 1 + 2, 2 + 1 + 2]
    state.players[0].cities[0].buildings.append("academy.1")
    assert income(state, 0) == 5  # Academies give science, not income


def test_score_card_scores_at_the_next_end_round_with_science() -> None:
    """End Round: "If you draw a Score Card ... you will score Victory Points in the next End Round phase"; "if it is
    a normal scoring round, each player collects 1 extra science"."""
    state = start_actions(2)
    place(state, 0, ["turnip-farm.1"])
    position = state.deck.index("score-A")
    state.deck.insert(0, state.deck.pop(position))
    state = end_round(state)
    assert state.score_due == ["score-A"] and state.players[0].vp == 0
    for seat in list(GAME.to_act(state)):
        state = act(state, seat, {"kind": "done"})
    while state.phase == "bid":
        state = act(state, state.current, GAME.legal_actions(state, state.current)[0].action)
    science = [player.science for player in state.players]
    state = end_round(state)
    assert state.scorings == 1 and state.players[0].vp == DATA.goods["turnips"].vp_first
    assert [player.science for player in state.players] == [value + 1 for value in science]


def test_game_ends_one_round_after_the_third_score_card() -> None:
    """Game End: "over one round after the third Score Card is drawn ... Shuffle the pile of discarded Building
    Cards and draw from that deck"; "collect Victory Points (but not coins or science)"; bonuses."""
    state = start_actions(2)
    state.score_due = []
    state.scorings = 2
    state.deck = ["score-C"] + [uid for uid in state.deck if uid.startswith("score-") and uid != "score-C"]
    state.box += [uid for uid in state.deck if uid != "score-C"]
    state.deck = ["score-C"]
    state = end_round(state)
    assert state.last_round and state.score_due == ["score-C"] and None not in state.row
    for seat in list(GAME.to_act(state)):
        state = act(state, seat, {"kind": "done"})
    while state.phase == "bid":
        state = act(state, state.current, GAME.legal_actions(state, state.current)[0].action)
    coins = [player.coins for player in state.players]
    state = end_round(state)
    assert state.phase == "over" and GAME.result(state) is not None
    assert state.scorings == 3
    assert all(player.coins <= before + 6 for player, before in zip(state.players, coins, strict=True))
    with pytest.raises(RuleError) as error:
        GAME.apply(state, 0, {"kind": "tax"})
    assert error.value.reason == Rejection.GAME_OVER


def test_end_round_draws_from_tokens_and_buildings() -> None:
    """Draw Military and Citizen Cards: "according to the number of Citizen and Military card icons on City tokens
    and Building Cards" ("Your starting city gives you 1 Citizen draw")."""
    state = start_actions(2)
    place(state, 0, ["barracks.1"])
    hands = [len(player.hand) for player in state.players]
    state = end_round(state)
    assert [len(player.hand) for player in state.players] == [hands[0] + 2, hands[1] + 1]


def test_snyle_good_chosen_at_each_end_round() -> None:
    """Snyle: "Gives two of one Good type that you already own at least one of ... at the beginning of each end round"."""
    state = start_actions(2, expansion=True)
    for pile in (state.expansion_row, state.expansion_deck):
        if "snyle" in pile:
            pile.remove("snyle")
    state.players[0].towns = ["snyle"]
    place(state, 0, ["turnip-farm.1"])
    state = end_round(state)
    assert state.phase == "snyle" and GAME.to_act(state) == {0}
    assert [choice.key for choice in GAME.legal_actions(state, 0)] == ["snyle:turnips"]
    rejected(state, 0, {"kind": "snyle", "good": "silk"}, "already own")
    state = act(state, 0, {"kind": "snyle", "good": "turnips"})
    assert goods_totals(state, state.players[0])["turnips"] == 5 and state.phase == "purchase"

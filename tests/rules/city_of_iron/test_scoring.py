"""Scoring: goods places and ties, +VP buildings, end-game bonuses and the result's tie-breaks."""

from __future__ import annotations

from rules.city_of_iron.data import game_data
from rules.city_of_iron.scoring import income_track

from .helpers import start_actions

DATA = game_data()


def test_scoring_first_second_ties_and_shield() -> None:
    """Score: 1st scores the higher number, 2nd the lower, ties both; "+1 Victory Point" at the shield."""
    from rules.city_of_iron.scoring import score_goods

    state = start_actions(3)
    a, b, c = state.players
    a.cities[0].buildings = ["turnip-farm.1", "turnip-farm.2"]  # 6 turnips: 1st and shield 6
    b.cities[0].buildings = ["srika-pasture-mixed.1"]  # 2 srikas, 1 turnip: 2nd in turnips
    c.cities[0].buildings = ["srika-pasture-mixed.2"]
    gained = score_goods(state)
    turnips, srikas = DATA.goods["turnips"], DATA.goods["srikas"]
    assert gained[0] == {"turnips": turnips.vp_first, "shields": 1}
    assert gained[1] == {"turnips": turnips.vp_second, "srikas": srikas.vp_first}
    assert gained[2] == gained[1]


def test_plus_three_buildings_need_first_or_second_place() -> None:
    """Building Clarifications: "the player must be in 1st or 2nd place on that specific good" for "+3"."""
    from rules.city_of_iron.scoring import score_goods

    state = start_actions(4)
    players = state.players
    players[0].cities[0].buildings = ["turnip-farm.1", "turnip-farm.2"]
    players[1].cities[0].buildings = ["turnip-farm.3"]
    players[2].cities[0].buildings = ["vodka-distillery.1"]  # 2 turnips: 3rd
    assert "+3 buildings" not in score_goods(state)[2]
    players[1].cities[0].buildings = []
    assert score_goods(state)[2]["+3 buildings"] == 3


def test_end_game_bonuses_ties_give_nothing_and_storing_penalty() -> None:
    """Game End bonuses: most coins +2, distance +2, one good +2, cards +2, conquered towns +3; "If players are tied
    for a specific bonus, neither player gets it"; storing penalty per card or per 2 (option)."""
    from rules.city_of_iron.scoring import end_bonuses

    state = start_actions(2)
    a, b = state.players
    a.coins, b.coins = 9, 9
    a.towns = ["fenwick"]
    a.stored = ["mine.1", "mine.2", "docks.1"]
    bonuses = end_bonuses(state)
    assert "most coins" not in bonuses[0] and "most coins" not in bonuses[1]
    assert bonuses[0]["most towns"] == 3 and bonuses[0]["stored buildings"] == -3
    assert bonuses[0]["most one good"] == 2
    state.stored_penalty = "per_two"
    assert end_bonuses(state)[0]["stored buildings"] == -1


def test_most_cards_counts_hand_and_draw_piles_not_discards() -> None:
    """Game End: "Most Military/Citizen Cards: Player with the most owned Military and Citizen cards (in hand
    or undrawn). +2 Victory Points": discarded cards are not in hand nor undrawn, so they do not count."""
    from rules.city_of_iron.scoring import end_bonuses, owned_cards

    state = start_actions(2)
    a, b = state.players
    # Seat 0: 4 cards in hand or undrawn and 6 more in its discard piles; seat 1: 5, none discarded.
    a.hand, a.citizen_draw, a.military_draw = a.unpurchased[:2], a.unpurchased[2:3], a.unpurchased[3:4]
    a.citizen_discard, a.military_discard = a.unpurchased[4:7], a.unpurchased[7:10]
    a.unpurchased = a.unpurchased[10:]
    b.hand, b.citizen_draw, b.military_draw = b.unpurchased[:2], b.unpurchased[2:3], b.unpurchased[3:5]
    b.citizen_discard, b.military_discard = [], []
    b.unpurchased = b.unpurchased[5:]
    assert owned_cards(a) == 4 and owned_cards(b) == 5
    bonuses = end_bonuses(state)
    assert bonuses[1]["most cards"] == 2 and "most cards" not in bonuses[0]
    b.hand.pop()
    bonuses = end_bonuses(state)
    assert "most cards" not in bonuses[0] and "most cards" not in bonuses[1], "a tie gives it to nobody"


def test_dar_embe_counts_as_three_towns() -> None:
    """Dar Embe: "Gives 3 coins and counts as 3 Towns for end game bonuses"."""
    from rules.city_of_iron.scoring import end_bonuses, town_count

    state = start_actions(2, expansion=True)
    state.players[0].towns = ["dar-embe"]
    state.players[1].towns = ["fenwick", "woolcombe"]
    assert town_count(state.players[0]) == 3
    assert end_bonuses(state)[0]["most towns"] == 3
    assert income_track(state, state.players[0]) == 2 + 3


def test_result_tie_breaks_coins_then_goods() -> None:
    """Game End: "If players are tied, the player with the most coins is the winner ... still tied ... most total goods"."""
    from rules.city_of_iron.scoring import result

    state = start_actions(3)
    for player in state.players:
        player.vp, player.coins = 10, 4
    state.players[2].coins = 5
    state.players[1].cities[0].buildings = ["turnip-farm.1"]
    outcome = result(state)
    assert outcome.ranking == [[2], [1], [0]]
    assert "more coins" in outcome.reason

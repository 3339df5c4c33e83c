"""One test per rule of the City of Iron rulebook, the rule quoted or cited in each docstring."""

from __future__ import annotations

import pytest

from rules.city_of_iron import GAME
from rules.city_of_iron.data import game_data
from rules.city_of_iron.moves.attack import attack_targets
from rules.city_of_iron.moves.setup import deal_cards
from rules.city_of_iron.scoring import goods_totals, income, income_track
from rules.core import Rejection, RuleError

from .helpers import act, arrange_all, find_building, give, new_game, place, rejected, start_actions

DATA = game_data()


def kinds(uids: list[str]) -> list[str]:
    return [uid.rsplit(".", 1)[0] for uid in uids]


# ---- setup ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "slots"), [(2, 7), (3, 10), (4, 12)])
def test_setup_removes_marked_buildings_and_fills_slots(players: int, slots: int) -> None:
    """Setup 4-5: "3 Players: Remove all cards with the number 3 ... 2 Players: ... 3 or 2"; slots 7/10/12."""
    state = new_game([f"P{index}" for index in range(players)])
    in_play = [uid for uid in [*state.row, *state.deck] if uid and not uid.startswith("score-")]
    for uid in in_play:
        mark = DATA.buildings[uid.rsplit(".", 1)[0]].copies[int(uid.rsplit(".", 1)[1]) - 1]
        assert mark is None or (mark == 3 and players == 4) or (mark == 2 and players >= 3)
    marks = [mark for kind in DATA.buildings.values() for mark in kind.copies]
    assert len(marks) == 26 + 22 + 18
    expected = {4: len(marks), 3: len(marks) - marks.count(3), 2: marks.count(None)}[players]
    assert len(in_play) == expected
    assert len(state.row) == slots and None not in state.row


def test_setup_tells_the_random_bid_order_and_nations() -> None:
    """Setup 9: "Randomly determine beginning bid order. Take one cube from each player and place the cubes
    in bid order from left to right on the bid track"; nations dealt at random (option). Setup has no
    events, so `opening_events` tells both in the first post."""
    state = new_game(["Sam", "Julia", "Mark"], seed=3)
    order, nations = GAME.opening_events(state)
    names = [state.players[seat].name for seat in state.bid_order]
    assert (
        order.text
        == f"Bid order, drawn at random (left to right on the bid track): {names[0]}, {names[1]} and {names[2]}."
    )
    for player in state.players:
        assert f"the {DATA.nations[player.nation].name} to {player.name}" in nations.text
    picked = new_game(["Sam", "Julia", "Mark"], seed=3, nations="pick")
    assert [event.text for event in GAME.opening_events(picked)] == [order.text], (
        "picked nations: only the order"
    )


def test_score_cards_lie_under_decks_a_b_and_c() -> None:
    """Setup 4: the A Score card at the bottom of deck A, B under B, the final card under C; A on B on C."""
    state = new_game()
    scores = [index for index, uid in enumerate(state.deck) if uid.startswith("score-")]
    assert [state.deck[index] for index in scores] == ["score-A", "score-B", "score-C"]
    assert scores[-1] == len(state.deck) - 1
    letters = [
        DATA.buildings[uid.rsplit(".", 1)[0]].deck for uid in state.deck if not uid.startswith("score-")
    ]
    assert letters == sorted(letters)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_town_piles_drop_demons_and_ore(players: int) -> None:
    """Setup 7: "three players, put all towns with Demons in the box ... two players ... Demons and Ore"."""
    state = new_game([f"P{index}" for index in range(players)])
    towns = [town for pile in state.town_piles.values() for town in pile]
    goods = {good for town in towns for good in DATA.towns[town].goods}
    assert ("bottled_demons" in goods) == (players == 4)
    assert ("ore" in goods) == (players >= 3)
    assert not state.expansion_row  # the expansion is an option


def test_setup_coins_income_hand_and_lands() -> None:
    """Setup 1, 3, 6, 8: 7 coins, one citizen card, base income 2, a 5-city on a 0-distance land; 2-player lands."""
    state = start_actions(2)
    for player in state.players:
        assert (
            player.coins <= 7
            and len(player.hand) == 1
            and kinds(player.hand)[0] in ("scholar", "cartographer")
        )
        assert income_track(state, player) == 2
        assert DATA.lands[player.cities[0].land].distance == 0 and player.cities[0].token == "t5"
    assert not any(not DATA.lands[land].two_player for land in state.lands)


def test_random_nations_and_pick_option() -> None:
    """Setup 1: each player takes a Nation; option `nations`: dealt at random, or picked in seat order."""
    state = new_game(seed=5)
    assert sorted(player.nation for player in state.players) == sorted(DATA.nations)
    state = new_game(["A", "B"], nations="pick")
    assert state.phase == "nation" and GAME.to_act(state) == {0}
    state = act(state, 0, {"kind": "nation", "nation": "om"})
    rejected(state, 1, {"kind": "nation", "nation": "om"}, "already taken")
    state = act(state, 1, {"kind": "nation", "nation": "arc"})
    assert state.phase == "arrange" and GAME.to_act(state) == {0, 1}


def test_starting_decks_in_chosen_order() -> None:
    """Setup 2: "Put the Cartographer and Scholar together (in the order you choose)"; draw one citizen."""
    state = new_game(["A", "B"])
    state = act(
        state,
        0,
        {"kind": "arrange", "citizen": ["cartographer", "scholar"], "military": ["captain", "soldier"]},
    )
    assert kinds(state.players[0].hand) == ["cartographer"]
    assert kinds(state.players[0].military_draw) == ["captain", "soldier"]
    rejected(
        state, 1, {"kind": "arrange", "citizen": ["scholar"], "military": ["soldier", "captain"]}, "exactly"
    )


# ---- bids ---------------------------------------------------------------------------------------------------
def test_bid_pays_and_turn_order_runs_right_to_left() -> None:
    """Turn Order Bid: "he pays the indicated amount ... Turn order is opposite of bid order, right to left"."""
    state = new_game(["A", "B", "C"])
    state = arrange_all(state)
    first, second, third = state.bid_order
    state = act(state, first, {"kind": "bid", "space": 0})
    rejected(state, second, {"kind": "bid", "space": 0}, "not open")
    state = act(state, second, {"kind": "bid", "space": 4})
    assert state.players[second].coins == 2  # paid 5 of 7
    state = act(state, third, {"kind": "bid", "space": 1})
    assert state.turn_order == [second, third, first]
    assert state.current == second


def test_not_your_turn_is_refused() -> None:
    """Actions: "In turn order, players take Actions one at a time"."""
    state = start_actions(2)
    other = 1 - state.current
    with pytest.raises(RuleError) as error:
        GAME.apply(state, other, {"kind": "tax"})
    assert error.value.reason == Rejection.NOT_YOUR_TURN


def test_toad_second_bid_pays_the_difference() -> None:
    """Toad Inventors of Om: "may bid for turn order a second time, after everyone else has bid, paying the difference"."""
    state = new_game(["A", "B"], abilities=True)
    state.players[0].nation, state.players[1].nation = "om", "arc"
    deal_cards(state)
    state = arrange_all(state)
    assert kinds(state.players[0].citizen_draw + state.players[0].hand).count("fixer") == 1
    for seat in list(state.bid_order):
        state = act(state, seat, {"kind": "bid", "space": 0 if seat == 0 else 1})
    assert state.phase == "rebid" and state.current == 0
    rejected(state, 0, {"kind": "rebid", "space": 1}, "not open")
    coins = state.players[0].coins
    state = act(state, 0, {"kind": "rebid", "space": 2})
    assert state.players[0].coins == coins - 2 and state.turn_order == [0, 1]


# ---- actions ------------------------------------------------------------------------------------------------
def test_build_needs_the_land_type() -> None:
    """Build: "You must also have ... the correct land type required by the Building in that City"."""
    state = start_actions(2)
    seat = state.current
    state.players[seat].coins = 20
    docks = find_building(state, "docks")
    rejected(state, seat, {"kind": "build", "card": docks, "site": f"{seat}-1"}, "needs coast")


def test_build_unaffordable_is_refused() -> None:
    """Build: "You must pay the cost in Coins and Science"."""
    state = start_actions(2)
    seat = state.current
    state.players[seat].coins = 4
    academy = find_building(state, "academy")
    rejected(state, seat, {"kind": "build", "card": academy, "site": f"{seat}-1"}, "costs 5 coins")
    garden = find_building(state, "moss-garden")
    state.players[seat].coins = 9
    rejected(state, seat, {"kind": "build", "card": garden, "site": f"{seat}-1"}, "science")


def test_build_goods_raise_income_and_goods() -> None:
    """Build: "if the Building Card produces Goods ... increase the income on your Nation Board by one"."""
    state = start_actions(2)
    seat = state.current
    farm = find_building(state, "turnip-farm")
    state = act(state, seat, {"kind": "build", "card": farm, "site": f"{seat}-1"})
    assert income_track(state, state.players[seat]) == 3
    assert goods_totals(state, state.players[seat])["turnips"] == 3
    assert state.row[0] is None  # the slot stays empty until End Round


def test_city_capacity_and_demolition() -> None:
    """Buildings: "The number on the City Token is the limit ... discard one of the already-built ... to make room"."""
    state = start_actions(2)
    seat = state.current
    player = state.players[seat]
    place(state, seat, [f"turnip-farm.{n}" for n in (1, 2, 3)] + ["market.1", "market.2"])
    player.coins = 20
    academy = find_building(state, "academy")
    rejected(state, seat, {"kind": "build", "card": academy, "site": f"{seat}-1"}, "full")
    rejected(
        state, seat, {"kind": "build", "card": academy, "site": f"{seat}-1", "demolish": "mine.1"}, "no such"
    )
    state = act(state, seat, {"kind": "build", "card": academy, "site": f"{seat}-1", "demolish": "market.1"})
    assert "market.1" in state.discard and academy in state.players[seat].cities[0].buildings


def test_demolition_only_when_full() -> None:
    """Buildings: demolish "to make room for the new one": not while the city still has room (decision)."""
    state = start_actions(2)
    seat = state.current
    place(state, seat, ["market.1"])
    farm = find_building(state, "turnip-farm")
    rejected(
        state, seat, {"kind": "build", "card": farm, "site": f"{seat}-1", "demolish": "market.1"}, "room"
    )


def test_science_paid_once_per_building_name() -> None:
    """Science Cost: "if you already own a Building Card of the same name ... The Science cost is then zero"."""
    state = start_actions(2)
    seat = state.current
    player = state.players[seat]
    player.coins, player.science = 20, 1
    first = find_building(state, "moss-garden")
    state = act(state, seat, {"kind": "build", "card": first, "site": f"{seat}-1"})
    assert state.players[seat].science == 0
    state = act(state, state.current, {"kind": "tax"})
    second = find_building(state, "moss-garden-b")  # another card named Moss Garden
    state = act(state, seat, {"kind": "build", "card": second, "site": f"{seat}-1"})
    assert state.players[seat].science == 0


def test_buy_science_for_four_coins() -> None:
    """Buy Science: "You may gain one Science token by paying four coins"."""
    state = start_actions(2)
    seat = state.current
    state.players[seat].coins = 3
    assert "science" not in [choice.key for choice in GAME.legal_actions(state, seat)]
    rejected(state, seat, {"kind": "science"}, "4 coins")
    state.players[seat].coins = 5
    state = act(state, seat, {"kind": "science"})
    assert (state.players[seat].coins, state.players[seat].science) == (1, 1)


def test_tax_gains_one_coin_and_uses_an_action() -> None:
    """Tax: "Gain one coin"; "Each player has three Actions in the round, but may only use one each turn"."""
    state = start_actions(2)
    seat = state.current
    coins = state.players[seat].coins
    state = act(state, seat, {"kind": "tax"})
    assert state.players[seat].coins == coins + 1 and state.players[seat].actions_left == 2
    assert state.current != seat


def test_store_then_build_later() -> None:
    """Store a Building: "take one of the available Building Cards and store it"; Build "(or a card you had stored)"."""
    state = start_actions(2)
    seat = state.current
    farm = find_building(state, "turnip-farm")
    state = act(state, seat, {"kind": "store", "card": farm})
    assert state.players[seat].stored == [farm] and farm not in state.row
    state = act(state, state.current, {"kind": "tax"})
    assert any(choice.key.startswith(f"build:{farm}") for choice in GAME.legal_actions(state, seat))
    state = act(state, seat, {"kind": "build", "card": farm, "site": f"{seat}-1"})
    assert not state.players[seat].stored


def test_draw_flips_discard_without_shuffling() -> None:
    """Draw: "If there are no remaining cards in the draw pile, pick up the discard pile (do not change the order)"."""
    state = start_actions(2)
    seat = state.current
    player = state.players[seat]
    player.hand += player.citizen_draw
    player.citizen_draw = []
    player.citizen_discard = list(player.hand)
    player.hand = []
    order = list(player.citizen_discard)
    state = act(state, seat, {"kind": "draw", "deck": "citizen"})
    assert state.players[seat].hand == order[:1] and state.players[seat].citizen_draw == order[1:]


def test_draw_from_empty_deck_is_refused() -> None:
    """Draw: "If there are no cards in the discard or draw pile, you may not draw"."""
    state = start_actions(2)
    seat = state.current
    state.players[seat].hand += state.players[seat].citizen_draw
    state.players[seat].citizen_draw = []
    rejected(state, seat, {"kind": "draw", "deck": "citizen"}, "empty")


def test_scholar_action_with_a_work_skill() -> None:
    """Sample Round: the Scholar "can gain one Science by paying a coin and using a Work Skill (hammer)"."""
    state = start_actions(2)
    seat = state.current
    player = state.players[seat]
    player.hand = []
    scholar, cartographer = give(state, seat, "scholar"), give(state, seat, "cartographer")
    soldier = give(state, seat, "soldier")
    rejected(state, seat, {"kind": "play", "card": scholar}, "work")
    rejected(state, seat, {"kind": "play", "card": scholar, "payers": [soldier]}, "no skill")
    rejected(state, seat, {"kind": "play", "card": scholar, "payers": [scholar]}, "only once")
    rejected(
        state, seat, {"kind": "play", "card": scholar, "payers": [cartographer, cartographer]}, "only once"
    )
    rejected(state, seat, {"kind": "play", "card": soldier}, "no action")
    coins = player.coins
    state = act(state, seat, {"kind": "play", "card": scholar, "payers": [cartographer]})
    after = state.players[seat]
    assert (after.coins, after.science) == (coins - 1, 1)
    assert after.citizen_discard[-2:] == [scholar, cartographer] and after.hand == [soldier]


def test_free_actions_before_the_real_action() -> None:
    """Card Action: "Free Action ... you may on your turn play as many 'Free Actions' as you want, before your real Action"."""
    state = start_actions(2)
    seat = state.current
    junkbot = give(state, seat, "junkbot")
    coins = state.players[seat].coins
    state = act(state, seat, {"kind": "play", "card": junkbot})
    assert state.current == seat and state.players[seat].actions_left == 3
    assert state.players[seat].coins == coins + 1


def test_explorer_settles_a_new_city() -> None:
    """Settling a New City: Explorer + "cards with the Distance Skill to equal the distance"; "The Distance Skill of
    the Explorer cannot be used"; "Some lands also require that you use an Airship Card or Ship Card"."""
    state = start_actions(4, seed=2)
    seat = state.current
    state.players[seat].hand = []
    explorer, cartographer = give(state, seat, "explorer"), give(state, seat, "cartographer")
    rejected(
        state, seat, {"kind": "play", "card": explorer, "land": "brindle-coast", "token": "t3c"}, "distance"
    )
    rejected(
        state,
        seat,
        {"kind": "play", "card": explorer, "payers": [explorer], "land": "brindle-coast", "token": "t3c"},
    )
    cargo = give(state, seat, "cargo-ship")
    rejected(
        state,
        seat,
        {
            "kind": "play",
            "card": explorer,
            "payers": [cartographer, cargo],
            "land": "skyreach",
            "token": "t3c",
        },
        "airship",
    )
    rejected(
        state,
        seat,
        {"kind": "play", "card": explorer, "payers": [cartographer], "land": "verdant-isle", "token": "t3c"},
        "distance",
    )
    state = act(
        state,
        seat,
        {
            "kind": "play",
            "card": explorer,
            "payers": [cargo, cartographer],
            "land": "verdant-isle",
            "token": "t3m",
        },
    )
    player = state.players[seat]
    assert [city.land for city in player.cities][1] == "verdant-isle"
    assert "verdant-isle" not in state.lands and "t3m" not in player.tokens
    docks = find_building(state, "docks")
    while state.current != seat:
        state = act(state, state.current, {"kind": "tax"})
    state.players[seat].coins = 10
    state = act(state, seat, {"kind": "build", "card": docks, "site": player.cities[1].id})
    assert docks in state.players[seat].cities[1].buildings


def test_mayor_adds_a_district_and_arc_military_districts_hold_two() -> None:
    """Expand a City: "you must use the Mayor ... +1 or +2 open spaces"; Arc: "military district has +2 instead of +1"."""
    for abilities, nation, expected in ((False, "om", 6), (True, "arc", 7)):
        state = start_actions(2, abilities=abilities)
        seat = state.current
        state.players[seat].nation = nation
        state.players[seat].hand = []
        mayor, scholar = give(state, seat, "mayor"), give(state, seat, "scholar")
        rejected(
            state, seat, {"kind": "play", "card": mayor, "payers": [scholar], "city": "9-9", "token": "t2"}
        )
        state = act(
            state,
            seat,
            {"kind": "play", "card": mayor, "payers": [scholar], "city": f"{seat}-1", "token": "t2"},
        )
        view = GAME.view(state, None)
        assert view.seats[seat].cities[0].capacity == expected


def test_attack_a_neutral_town() -> None:
    """Attack Town: attack value "equals the defense value", distance skills "equal the Distance", "A card cannot be
    used for its attack value and its Distance Skill"; "discard the left-most building card" for an unconquered town."""
    state = start_actions(2)
    seat = state.current
    town = state.town_piles["1"][0]
    defense, distance = DATA.towns[town].defense, DATA.towns[town].distance
    player = state.players[seat]
    player.hand = []
    captain, soldier = give(state, seat, "captain"), give(state, seat, "soldier")
    cartographer = give(state, seat, "cartographer")
    spy = give(state, seat, "spy")
    rejected(
        state,
        seat,
        {"kind": "attack", "town": town, "attackers": [], "distance": [cartographer]},
        "at least one",
    )
    rejected(
        state,
        seat,
        {"kind": "attack", "town": town, "attackers": [captain], "distance": [captain]},
        "only once",
    )
    if distance > 0:
        rejected(state, seat, {"kind": "attack", "town": town, "attackers": [captain, soldier]}, "distance")
    rejected(
        state, seat, {"kind": "attack", "town": state.town_piles["3"][1], "attackers": [captain]}, "cannot be"
    )
    if defense > 2:
        rejected(
            state,
            seat,
            {"kind": "attack", "town": town, "attackers": [captain], "distance": [spy]},
            "defence",
        )
    left = state.row[0]
    state = act(
        state, seat, {"kind": "attack", "town": town, "attackers": [captain, soldier], "distance": [spy]}
    )
    assert town in state.players[seat].towns and state.row[0] is None and left in state.discard
    assert income_track(state, state.players[seat]) == 3


def test_attack_an_owned_town_has_plus_two_defence_and_moves_income() -> None:
    """Towns: "The Defense value of a town is 2 greater when another player owns the town ... that player loses one
    income and the Goods"; the reference's "cannot attack your own town"."""
    state = start_actions(2)
    seat = state.current
    other = 1 - seat
    town = state.town_piles["1"][0]
    state.town_piles["1"].remove(town)
    state.players[other].towns.append(town)
    state.players[seat].hand = []
    captain, soldier = give(state, seat, "captain"), give(state, seat, "soldier")
    spy, cartographer = give(state, seat, "spy"), give(state, seat, "cartographer")
    defense = DATA.towns[town].defense + 2
    attack = [captain, soldier] if defense <= 3 else None
    if attack is None:
        iron = give(state, seat, "iron-guard")
        attack = [captain, iron]
    state = act(
        state, seat, {"kind": "attack", "town": town, "attackers": attack, "distance": [spy, cartographer]}
    )
    assert town in state.players[seat].towns and town not in state.players[other].towns
    assert income_track(state, state.players[other]) == 2
    state.current = seat  # seat's next turn
    rejected(state, seat, {"kind": "attack", "town": town, "attackers": [captain]}, "own town")


def test_eye_symbols_reach_deeper_into_town_piles() -> None:
    """Reference: "Eye symbols on buildings: skip 1 town card per Eye when attacking"."""
    state = start_actions(2)
    seat = state.current
    second = state.town_piles["1"][1]
    assert second not in [target[0] for target in attack_targets(state, seat)]
    state.players[seat].cities[0].buildings.append("watchtower.1")
    assert second in [target[0] for target in attack_targets(state, seat)]


# ---- End Round ----------------------------------------------------------------------------------------------
def _end_round(state):  # noqa: ANN001, ANN202
    while state.phase == "actions":
        state = act(state, state.current, {"kind": "tax"})
    return state


def test_end_round_discards_four_slides_and_refills() -> None:
    """End Round: "Discard the four left-most Building Cards ... Slide the remaining ... Draw new Building Cards"."""
    state = start_actions(2)
    row = list(state.row)
    state.row[1] = None
    state = _end_round(state)
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


def test_score_card_scores_at_the_next_end_round_with_science() -> None:
    """End Round: "If you draw a Score Card ... you will score Victory Points in the next End Round phase"; "if it is
    a normal scoring round, each player collects 1 extra science"."""
    state = start_actions(2)
    place(state, 0, ["turnip-farm.1"])
    position = state.deck.index("score-A")
    state.deck.insert(0, state.deck.pop(position))
    state = _end_round(state)
    assert state.score_due == ["score-A"] and state.players[0].vp == 0
    for seat in list(GAME.to_act(state)):
        state = act(state, seat, {"kind": "done"})
    while state.phase == "bid":
        state = act(state, state.current, GAME.legal_actions(state, state.current)[0].action)
    science = [player.science for player in state.players]
    state = _end_round(state)
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
    state = _end_round(state)
    assert state.last_round and state.score_due == ["score-C"] and None not in state.row
    for seat in list(GAME.to_act(state)):
        state = act(state, seat, {"kind": "done"})
    while state.phase == "bid":
        state = act(state, state.current, GAME.legal_actions(state, state.current)[0].action)
    coins = [player.coins for player in state.players]
    state = _end_round(state)
    assert state.phase == "over" and GAME.result(state) is not None
    assert state.scorings == 3
    assert all(player.coins <= before + 6 for player, before in zip(state.players, coins, strict=True))
    with pytest.raises(RuleError) as error:
        GAME.apply(state, 0, {"kind": "tax"})
    assert error.value.reason == Rejection.GAME_OVER


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


def test_end_round_draws_from_tokens_and_buildings() -> None:
    """Draw Military and Citizen Cards: "according to the number of Citizen and Military card icons on City tokens
    and Building Cards" ("Your starting city gives you 1 Citizen draw")."""
    state = start_actions(2)
    place(state, 0, ["barracks.1"])
    hands = [len(player.hand) for player in state.players]
    state = _end_round(state)
    assert [len(player.hand) for player in state.players] == [hands[0] + 2, hands[1] + 1]


def test_purchases_are_secret_until_revealed() -> None:
    """Purchase: "Players select the cards they want to buy in secret ... each player reveals all new cards and pays"."""
    state = _end_round(start_actions(2))
    assert state.phase == "purchase" and GAME.to_act(state) == {0, 1}
    state.players[0].coins = 6
    state = act(state, 0, {"kind": "select", "card": "explorer.0a"})
    rejected(state, 0, {"kind": "select", "card": "iron-dragon.0a"}, "cannot pay")
    rejected(state, 0, {"kind": "select", "card": "explorer.0a"}, "not chosen yet")
    public = GAME.view(state, None).model_dump_json()
    assert "explorer.0a" not in public and "explorer.0a" in GAME.view(state, 0).model_dump_json()
    assert "explorer.0a" not in GAME.view(state, 1).model_dump_json()
    state = act(state, 0, {"kind": "done"})
    assert state.players[0].coins == 6
    state = act(state, 1, {"kind": "done"})
    assert "explorer.0a" in state.players[0].hand and state.players[0].coins == 3


# ---- nations -----------------------------------------------------------------------------------------------
def _nation_game(nation: str, abilities: bool = True):  # noqa: ANN202
    state = new_game(["A", "B"], abilities=abilities)
    state.players[0].nation = nation
    state.players[1].nation = "arc" if nation != "arc" else "om"
    deal_cards(state)
    return state


def test_first_game_removes_the_special_cards() -> None:
    """Nations: "For your first game, ignore the special abilities ... remove the unique cards from play"."""
    for nation in DATA.nations:
        state = _nation_game(nation, abilities=False)
        owned = kinds(
            state.players[0].citizen_draw + state.players[0].military_draw + state.players[0].unpurchased
        )
        assert not {"genius", "gunslinger", "strategist", "fixer"} & set(owned)


def test_hogmen_gunslinger_and_strategist() -> None:
    """Hogmen Republic: "replace the Captain with the Gunslinger ... add the Strategist to the pile of unpurchased"."""
    player = _nation_game("republic").players[0]
    assert sorted(kinds(player.military_draw)) == ["gunslinger", "soldier"]
    assert {"strategist", "captain"} <= set(kinds(player.unpurchased))


def test_cresarian_genius_and_free_scholar() -> None:
    """Cresarian Scholars: "the Genius ... added to the pile of unpurchased cards. The Scholar card costs 0 Coins to use"."""
    state = _nation_game("cresaria")
    assert "genius" in kinds(state.players[0].unpurchased)
    state = arrange_all(state)
    for seat in list(state.bid_order):
        state = act(state, seat, {"kind": "bid", "space": [0, 1][state.bid_order.index(seat)]})
    while state.current != 0:
        state = act(state, state.current, {"kind": "tax"})
    state.players[0].hand = []
    scholar, cartographer = give(state, 0, "scholar"), give(state, 0, "cartographer")
    coins = state.players[0].coins
    state = act(state, 0, {"kind": "play", "card": scholar, "payers": [cartographer]})
    assert state.players[0].coins == coins and state.players[0].science == 1


def test_om_fixer_starts_in_the_citizen_deck() -> None:
    """Toad Inventors of Om: "The Toads start with the 'Fixer' Citizen card in their Citizen deck"."""
    player = _nation_game("om").players[0]
    assert sorted(kinds(player.citizen_draw)) == ["cartographer", "fixer", "scholar"]


def test_arc_moves_buildings_for_one_coin() -> None:
    """City-State of Arc: "as a free action, they may move buildings between cities for 1 coin"."""
    state = start_actions(2, abilities=True)
    seat = state.current
    player = state.players[seat]
    player.nation = "arc"
    place(state, seat, ["academy.1"])
    from rules.city_of_iron.state import City

    player.cities.append(City(id=f"{seat}-9", land="brindle-coast", token="t2"))
    state.lands.remove("brindle-coast")
    player.tokens.remove("t2")
    coins = player.coins
    state = act(state, seat, {"kind": "move", "building": "academy.1", "site": f"{seat}-9"})
    assert state.players[seat].cities[1].buildings == ["academy.1"] and state.players[seat].coins == coins - 1
    assert state.current == seat
    state.players[seat].nation = "om"
    rejected(state, seat, {"kind": "move", "building": "academy.1", "site": f"{seat}-1"}, "Arc")


# ---- town card expansion -------------------------------------------------------------------------------------
def test_expansion_keeps_three_towns_on_offer() -> None:
    """Town Card Expansion: "There should always be 3 expansion towns available to conquer"."""
    state = start_actions(2, expansion=True)
    assert len(state.expansion_row) == 3 and len(state.expansion_deck) == 4
    seat = state.current
    target = next(town for town in state.expansion_row if DATA.towns[town].defense <= 2)
    state.players[seat].hand = []
    captain, spy = give(state, seat, "captain"), give(state, seat, "spy")
    state = act(state, seat, {"kind": "attack", "town": target, "attackers": [captain], "distance": [spy]})
    assert len(state.expansion_row) == 3 and len(state.expansion_deck) == 3


def test_metgra_holds_buildings_that_follow_the_town() -> None:
    """Metgra: "Holds 2 Buildings like a City. Has water and jungle. If a player conquers this Town from you, he also
    takes any Buildings attached to it"."""
    state = start_actions(2, expansion=True)
    seat = state.current
    other = 1 - seat
    for pile in (state.expansion_row, state.expansion_deck):
        if "metgra" in pile:
            pile.remove("metgra")
    state.players[other].towns = ["metgra"]
    place(state, other, ["docks.1"])
    state.town_buildings["metgra"] = state.players[other].cities[0].buildings
    state.players[other].cities[0].buildings = []
    assert goods_totals(state, state.players[other])["tentacles"] == 2
    state.players[seat].hand = []
    attackers = [give(state, seat, "captain"), give(state, seat, "iron-guard")]
    payers = [give(state, seat, "spy"), give(state, seat, "cartographer")]
    state = act(state, seat, {"kind": "attack", "town": "metgra", "attackers": attackers, "distance": payers})
    assert goods_totals(state, state.players[seat])["tentacles"] == 2
    assert goods_totals(state, state.players[other])["tentacles"] == 0


def test_snyle_good_chosen_at_each_end_round() -> None:
    """Snyle: "Gives two of one Good type that you already own at least one of ... at the beginning of each end round"."""
    state = start_actions(2, expansion=True)
    for pile in (state.expansion_row, state.expansion_deck):
        if "snyle" in pile:
            pile.remove("snyle")
    state.players[0].towns = ["snyle"]
    place(state, 0, ["turnip-farm.1"])
    state = _end_round(state)
    assert state.phase == "snyle" and GAME.to_act(state) == {0}
    assert [choice.key for choice in GAME.legal_actions(state, 0)] == ["snyle:turnips"]
    rejected(state, 0, {"kind": "snyle", "good": "silk"}, "already own")
    state = act(state, 0, {"kind": "snyle", "good": "turnips"})
    assert goods_totals(state, state.players[0])["turnips"] == 5 and state.phase == "purchase"


# ---- choices ------------------------------------------------------------------------------------------------
def test_every_listed_choice_is_accepted_and_well_formed() -> None:
    """The contract: every Choice listed is a valid Choice (key <= 60, label <= 100) and `apply` accepts it."""
    import random

    from rules.core import Choice

    rng = random.Random(4)
    for players, options in (
        (4, {"abilities": True, "expansion": True}),
        (3, {"nations": "pick", "abilities": True}),
        (2, {}),
        (4, {"expansion": True, "stored_penalty": "per_two"}),
    ):
        state = GAME.setup([f"P{index}" for index in range(players)], options, 40 + players)
        step = 0
        while GAME.result(state) is None:
            seat = sorted(GAME.to_act(state))[0]
            choices = GAME.legal_actions(state, seat)
            for choice in choices:
                Choice.model_validate(choice.model_dump())
            if step % 4 == 0:
                for choice in choices:
                    GAME.apply(state, seat, choice.action)
            state = GAME.apply(state, seat, rng.choice(choices).action).state
            step += 1
        assert state.phase == "over" and state.scorings == 3

"""Building (land types, costs, capacity, demolition, science once per name), storing, the Arc's move
and buildings in towns."""

from __future__ import annotations

from rules.city_of_iron import GAME
from rules.city_of_iron.scoring import goods_totals, income_track

from .helpers import act, find_building, give, place, rejected, start_actions


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

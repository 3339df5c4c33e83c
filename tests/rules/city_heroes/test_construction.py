"""Construction (plant, build, upgrade, public works, craft): one test per rule of the guide (quoted in each docstring); illegal moves raise RuleError and change nothing."""

from __future__ import annotations

from rules.city_heroes import GAME

from .helpers import at_phase, cleanup, finish_work, give, own, play, rejected, texts


def test_plant_rules():
    """'Wheat and Timber can be planted, provided that a matching resource is present in an adjacent tile'
    'You may plant over an existing, different resource, but only if you own the tile.' 'You can plant
    resources either on your own tiles, or on neutral tiles adjacent to a tile you own.' 'The cost is always
    1 worker and 1 of the resource being planted.'"""
    state = at_phase("construction")
    own(state, 0, 18)
    state.tiles[19 - 1].resource = "wheat"
    state.tiles[17 - 1].resource = "stone"
    state.tiles[17 - 1].terrain = "hill"
    state, _ = play(state, 0, {"kind": "plant", "tile": 18, "resource": "wheat"})
    assert state.tiles[17].resource == "wheat" and state.players[0].stock["wheat"] == 4
    state, _ = play(state, 0, {"kind": "plant", "tile": 25, "resource": "wheat"})  # neutral, next to T18
    assert state.players[0].ready == 3
    rejected(state, 0, {"kind": "plant", "tile": 17, "resource": "wheat"}, "only on Plains")
    rejected(state, 0, {"kind": "plant", "tile": 18, "resource": "timber"}, "timber on an adjacent tile")
    state.tiles[17 - 1].owner = None
    state.tiles[17 - 1].terrain = "plain"
    rejected(state, 0, {"kind": "plant", "tile": 17, "resource": "wheat"}, "only on your own tile")
    rejected(state, 0, {"kind": "plant", "tile": 3, "resource": "wheat"}, "neutral tiles next to yours")


def test_build_rules():
    """'Players can only build buildings that they can afford, place them on tiles that they have purchased
    and where other buildings don't exist' 'Mines can only be built on a Gold, Iron or Stone deposit.' 'You
    can build as many buildings as you can afford in each action.'"""
    state = at_phase("construction")
    own(state, 0, 5, 6)
    give(state, 0, iron=2, stone=5)
    rejected(state, 0, {"kind": "build", "tile": 5, "building": "mine"}, "gold or iron or stone")
    state.tiles[5 - 1].resource = "iron"
    state, _ = play(state, 0, {"kind": "build", "tile": 5, "building": "mine"})
    state, _ = play(state, 0, {"kind": "build", "tile": 6, "building": "market"})
    assert (state.tiles[4].building, state.tiles[5].building) == ("mine", "market")
    rejected(state, 0, {"kind": "build", "tile": 6, "building": "school"}, "already has a Market")
    rejected(state, 0, {"kind": "build", "tile": 7, "building": "school"}, "own tiles")
    rejected(state, 0, {"kind": "build", "tile": 5, "building": "college"}, "not a level 1")
    rejected(state, 0, {"kind": "upgrade", "tile": 5, "building": "planet"}, "Finish your build action")


def test_upgrades_and_level_three_uniqueness():
    """'only one (1) of each level 3 buildings can be built in a game, except for Estates, Banks, Apartments
    and Harvesting plants' (upgrade paths designed: Barracks -> Fort -> Castle)."""
    state = at_phase("construction", players=2)
    own(state, 0, 5)
    own(state, 1, 30)
    state.tiles[4].building = "fort"
    state.tiles[29].building = "fort"
    give(state, 0, weapons=2, stone=5, ducats=5)
    state, _ = play(state, 0, {"kind": "upgrade", "tile": 5, "building": "castle"})
    assert state.tiles[4].building == "castle" and state.unique_built == ["castle"]
    state.current, state.acted = 1, None
    give(state, 1, weapons=2, stone=5, ducats=5)
    rejected(state, 1, {"kind": "upgrade", "tile": 30, "building": "castle"}, "already a Castle")


def test_tenement_adds_an_idle_worker():
    """'Building a Tenement adds 1 worker to the Idle Worker pool.' (House track: House -> Tenement)"""
    state = at_phase("construction")
    own(state, 0, 5)
    give(state, 0, stone=2, scaffolds=1, ducats=3)
    state, _ = play(state, 0, {"kind": "upgrade", "tile": 5, "building": "tenement"})
    player = state.players[0]
    assert (player.workers, player.idle, player.ready, player.busy) == (6, 1, 4, 1)


def test_workshop_discount():
    """'Workshops reduce the amount Stone and Planks needed to create buildings and public works by 1.'"""
    state = at_phase("construction")
    own(state, 0, 5)
    state.tiles[4].building = "workshop"
    assert GAME.cost(state, 0, {"stone": 2, "planks": 1, "workers": 1}) == {"stone": 1, "workers": 1}


def test_public_work_placement_and_completion():
    """'Foundations may only be placed on city tiles ..., or a tile adjacent to such a tile.' 'They may not
    place a public work on a city tile with a building' 'The public work provides no benefits until it is
    completed.'"""
    state = at_phase("construction", players=2)
    own(state, 0, 18)
    own(state, 1, 12)
    state.tiles[17].building = "school"
    give(state, 0, stone=20, planks=20, ducats=30)
    state.players[0].ready = state.players[0].workers = 20
    rejected(state, 0, {"kind": "found", "tile": 18, "work": "la-rotonda"}, "a building or a public work")
    rejected(state, 0, {"kind": "found", "tile": 1, "work": "la-rotonda"}, "city tile or on a tile next")
    state, _ = play(state, 0, {"kind": "found", "tile": 12, "work": "la-rotonda"})  # another player's tile
    for _ in range(3):
        state, events = play(state, 0, {"kind": "stage", "tile": 12})
    assert "La Rotonda is finished" in texts(events)
    before = state.prestige
    state, _ = cleanup(state)
    assert state.prestige >= before + 4 + 2  # La Rotonda +4, the School +2
    assert state.players[1].influence >= 2  # the tile owner


def test_craft_planks_and_jewellery_needs_a_studio():
    """Designed: Planks from 2 Timber (issue 19: 1 Timber made ducats through the bank); Jewellery needs a
    Studio (4 Gold), and the Artisan's Guild 'will decrease the amount of raw resources needed' (3 Gold)."""
    state = at_phase("construction")
    rejected(state, 0, {"kind": "craft", "good": "planks", "count": 3}, "at most 2 planks")
    state, _ = play(state, 0, {"kind": "craft", "good": "planks", "count": 2})
    assert state.players[0].stock["planks"] == 2 and state.players[0].stock["timber"] == 1
    give(state, 0, gold=4)
    rejected(state, 0, {"kind": "craft", "good": "jewellery", "count": 1}, "needs a Studio")
    own(state, 0, 18)
    state.tiles[17].building = "studio"
    crafted, _ = play(state, 0, {"kind": "craft", "good": "jewellery", "count": 1})
    assert crafted.players[0].stock["gold"] == 0 and crafted.players[0].stock["jewellery"] == 1
    state.tiles[17].building = "artisans-guild"
    crafted, _ = play(state, 0, {"kind": "craft", "good": "jewellery", "count": 1})
    assert crafted.players[0].stock["gold"] == 1 and crafted.players[0].stock["jewellery"] == 1


def test_biblioteka_marciana_takes_three_ducats_off_colleges_and_universities():
    """Biblioteka Marciana: 'Grants a 3 Ducat discount for colleges/universities'."""
    state = at_phase("construction", players=2)
    base = {"ducats": 8, "stone": 2}
    assert GAME.cost(state, 0, base, target="college", discount={}) == base
    finish_work(state, 30, "biblioteka-marciana")
    assert GAME.cost(state, 0, base, target="college", discount={}) == {"ducats": 5, "stone": 2}
    assert GAME.cost(state, 0, base, target="university", discount={}) == {"ducats": 5, "stone": 2}
    assert GAME.cost(state, 0, base, target="school", discount={}) == base  # schools are not discounted


def test_carrariae_adds_stone_to_empty_hills_of_its_owner():
    """Carrariae: 'adds Stone to adjacent hills ... If placed on a tile owned by a player, only in tiles
    owned by the player. Doesn't replace existing resources.'"""
    state = at_phase("construction", players=2)
    centre = state.tiles[17]  # T18
    neighbours = [state.tiles[t - 1] for t in GAME.adjacent(state, 18)]
    for tile in (centre, *neighbours):
        tile.terrain = "hill"
        tile.resource = None
    own(state, 0, 18, neighbours[0].id, neighbours[1].id)
    neighbours[1].resource = "gold"
    text = GAME._carrariae(state, centre)
    assert centre.resource == "stone" and neighbours[0].resource == "stone"
    assert neighbours[1].resource == "gold"  # existing resources stay
    assert all(tile.resource is None for tile in neighbours[2:])  # not the owner's tiles
    assert "Stone appears on" in text

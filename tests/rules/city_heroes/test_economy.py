"""Issue 19: crafting and the bank together must not make ducats from nothing.

The guide, Exchange Resources with Bank: 'The bank will buy any Natural Resource for 2 Ducats and sell it
for 3 Ducats. The bank will buy any Good for 4 Ducats and sell it for 6 Ducats, except for Jewellery,
which it buys at 8 Ducats and sells at 12 Ducats.' Those prices are the guide's; the recipes are ours
(designed, `data/city_heroes/setup.json`), so the recipes must close every loop. With the first recipes
a player bought Timber at 3, crafted a Plank from it and sold it at 4 (+1 a plank), and Jewellery from
Gold made +2 with a Studio and +5 with the Artisan's Guild.
"""

from __future__ import annotations

from rules.city_heroes import GAME

from .helpers import at_phase, give, own, play

CRAFTING_BUILDINGS = (
    "workshop",
    "carpenter",
    "carpenters-guild",
    "stonemason",
    "masons-guild",
    "studio",
    "artisans-guild",
)
"""Every building that changes what things cost: the Studio and the Artisan's Guild are the ones the
recipes name; the Workshop, Carpenter, Stonemason and guilds discount buildings, and are owned too so
the test would notice if they ever reached crafting."""
START = 24
"""Ducats at the start of each searched sequence: enough for 8 natural resources, two Jewellery crafts'
worth of Gold with the Guild, or a good bought outright."""
DEPTH = 11
"""Single-unit steps per sequence: room to buy the inputs of any recipe twice over, craft and sell."""


def _recipes_as_charged(buildings: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """What one craft of each good takes from a seat owning `buildings`, measured through `GAME.apply`
    (so the search uses the engine's recipes, guild inputs included, not a copy of the data)."""
    state = at_phase("construction", players=2)
    for tile_id, building in zip((8, 9, 10, 15, 16, 17, 18), buildings, strict=False):
        own(state, 0, tile_id)
        state.tiles[tile_id - 1].building = building
    give(state, 0, timber=20, stone=20, gold=20, wheat=20, iron=20)
    before = state.players[0].stock
    recipes = {}
    for good in GAME.cat.recipes:
        after = play(state, 0, {"kind": "craft", "good": good, "count": 1})[0].players[0].stock
        assert after[good] == before[good] + 1
        recipes[good] = {key: before[key] - after[key] for key in before if after[key] < before[key]}
    return recipes


def _worth(ducats: int, stock: tuple[int, ...], pays: tuple[int, ...]) -> int:
    """Ducats plus every held resource at what the bank pays for it: what the holdings turn into at
    once. (Held goods at zero would let a gain hide in goods not yet sold at the depth bound.)"""
    return ducats + sum(count * price for count, price in zip(stock, pays, strict=True))


def _richest(recipes: dict[str, dict[str, int]], start: int, depth: int) -> tuple[int, list[str]]:
    """The best worth reachable from `start` ducats and nothing else in up to `depth` steps, each one
    bank purchase, one bank sale or one craft of one good; breadth-first over distinct holdings."""
    names = sorted({good for good in recipes} | {key for need in recipes.values() for key in need})
    index = {name: position for position, name in enumerate(names)}
    prices = [GAME.bank_price(name) for name in names]
    pays = tuple(price[0] for price in prices)
    moves: list[tuple[str, int, dict[int, int]]] = []
    for name, (paid, asked) in zip(names, prices, strict=True):
        moves.append((f"buy {name}", -asked, {index[name]: 1}))
        moves.append((f"sell {name}", paid, {index[name]: -1}))
    for good, need in recipes.items():
        change = {index[key]: -count for key, count in need.items()} | {index[good]: 1}
        moves.append((f"craft {good}", 0, change))
    empty = (0,) * len(names)
    seen = {(start, empty)}
    frontier: list[tuple[int, tuple[int, ...], list[str]]] = [(start, empty, [])]
    best = (start, [])
    for _ in range(depth):
        following = []
        for ducats, stock, path in frontier:
            for label, cash, change in moves:
                money = ducats + cash
                held = list(stock)
                for position, delta in change.items():
                    held[position] += delta
                if money < 0 or min(held) < 0:
                    continue
                key = (money, tuple(held))
                if key in seen:
                    continue
                seen.add(key)
                following.append((money, key[1], [*path, label]))
                worth = _worth(money, key[1], pays)
                if worth > best[0]:
                    best = (worth, [*path, label])
        frontier = following
    return best


def test_the_bank_never_buys_for_more_than_it_sells():
    """A resource bought from the bank and sold back loses: 2 < 3, 4 < 6, 8 < 12."""
    for resource in (*GAME.cat.recipes, "timber", "stone", "gold", "wheat", "iron", "tools", "weapons"):
        paid, asked = GAME.bank_price(resource)
        assert paid < asked, resource


def test_no_sequence_of_bank_trades_and_crafting_ends_with_more_ducats():
    """No sequence of bank purchases, crafts and bank sales ends richer than it started, with only the
    Studio (Jewellery from Gold) or with every building that improves crafting (the Artisan's Guild:
    'decrease the amount of raw resources needed when creating Jewellery'). Resources outside the recipes
    (Wheat, Iron, Tools, Weapons) have no crafting step and lose on a round trip (the test above)."""
    for buildings in (("studio",), CRAFTING_BUILDINGS):
        recipes = _recipes_as_charged(buildings)
        assert set(recipes) == {"planks", "scaffolds", "sculptures", "jewellery"}
        worth, path = _richest(recipes, START, DEPTH)
        assert worth <= START, f"with {buildings}: {path} ends worth {worth} from {START}"
    guild = _recipes_as_charged(CRAFTING_BUILDINGS)["jewellery"]
    studio = _recipes_as_charged(("studio",))["jewellery"]
    assert sum(guild.values()) < sum(studio.values()), "the Artisan's Guild still needs less Gold"


def test_the_search_finds_the_loops_of_the_first_recipes():
    """The first designed recipes, which the issue found making money: the search must see each loop."""
    for recipes, gain in (
        ({"planks": {"timber": 1}}, 1),
        ({"jewellery": {"gold": 2}}, 2),
        ({"jewellery": {"gold": 1}}, 5),
    ):
        worth, path = _richest(recipes, START, DEPTH)
        assert worth >= START + gain, (recipes, worth, path)

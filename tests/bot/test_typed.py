"""`/play`: words in any order, small slips, the most-used moves first, variants as one entry."""

from __future__ import annotations

from bot.interface.components import menu_node
from bot.interface.typed import find, suggestions
from rules.core import Choice

MENU = "0123456789"


def _city_turn() -> list[Choice]:
    attacks = [
        Choice(
            key=f"attack:g5:{n}",
            label=f"Attack Greyvale G5 (D3, dist 1) with Soldier {n}; distance Spy",
            action={"n": n},
            group="Attack",
        )
        for n in range(25)
    ]
    others = [
        Choice(key="draw", label="Draw a card", action={"k": "draw"}, group="Other"),
        Choice(key="science", label="Buy 1 science for 3 coins", action={"k": "sci"}, group="Other"),
        Choice(key="end", label="End turn", action={"k": "end"}, group="Turn", timeout="pass"),
    ]
    return [*attacks, *others]


def test_words_in_any_order_and_slips() -> None:
    choices = [
        Choice(key="mv", label="Mechanized Gunner Patrol G5 → move H2", action={}, group="Move"),
        Choice(key="at", label="Skirmisher E4 → attack G5", action={}, group="Attack"),
    ]
    assert [c.key for c in find(choices, "G5 attack")] == ["at"]
    assert [c.key for c in find(choices, "atack g5")] == ["at"]
    assert [c.key for c in find(choices, "gunner h2")] == ["mv"]
    assert find(choices, "fortress") == []
    assert [s.value for s in suggestions(choices, "G5 attack", MENU)] == [f"{MENU}:at"]


def test_common_moves_first_and_variants_grouped() -> None:
    choices = _city_turn()
    listed = suggestions(choices, "", MENU)
    names = [s.name for s in listed]
    assert names[:3] == ["Draw a card", "Buy 1 science for 3 coins", "End turn"]
    grouped = [s for s in listed if "ways" in s.name]
    assert len(grouped) == 1 and "(25 ways)" in grouped[0].name
    assert len(listed) == 4
    # the entry leads to the attacks' own menu
    path = grouped[0].value.split(":grp:")[1]
    assert {c.key for c in menu_node(choices, path).members} >= {f"attack:g5:{n}" for n in range(25)}


def test_typing_narrows_to_the_variants() -> None:
    listed = suggestions(_city_turn(), "greyvale soldier 7", MENU)
    assert listed[0].value == f"{MENU}:attack:g5:7"


def test_science_stays_listed_beside_many_attacks() -> None:
    listed = suggestions(_city_turn(), "buy", MENU)
    assert [s.name for s in listed] == ["Buy 1 science for 3 coins"]


def test_autocomplete_reaches_every_move_of_real_games() -> None:
    """Seeded playouts: with nothing typed, the 25 entries name every move, directly or as a group
    entry whose menu holds it, and the most-used moves come first."""
    import random

    from rules import registry

    for game in [g for g in registry.all_games() if not g.info.id.startswith("test")]:
        rng = random.Random(f"typed/{game.info.id}")
        checked = 0
        for seed in range(10):
            count = rng.choice([game.info.min_players, game.info.max_players])
            state = game.setup([f"P{i}" for i in range(count)], None, seed)
            for _ in range(150):
                if game.result(state) is not None or not game.to_act(state):
                    break
                seat = rng.choice(sorted(game.to_act(state)))
                choices = game.legal_actions(state, seat)
                listed = suggestions(choices, "", MENU)
                assert len(listed) <= 25
                covered: set[str] = set()
                for entry in listed:
                    rest = entry.value.removeprefix(f"{MENU}:")
                    if rest.startswith("grp:"):
                        covered |= {c.key for c in menu_node(choices, rest[4:]).members}
                    else:
                        covered.add(rest)
                assert covered == {c.key for c in choices}, game.info.id
                checked += 1
                state = game.apply(state, seat, rng.choice(choices).action).state
        assert checked > 100

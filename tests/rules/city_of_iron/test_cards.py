"""Card actions: paying skills, free actions, settling lands and adding districts."""

from __future__ import annotations

from rules.city_of_iron import GAME

from .helpers import act, find_building, give, rejected, start_actions


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
    label = next(c.label for c in GAME.legal_actions(state, seat) if c.action.get("card") == junkbot)
    # Said once: the label read "Free: Junkbot: Free action: gain 1 coin." (issue 36).
    assert label == "Junkbot (free action): gain 1 coin."
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

"""REVENUE STEP, EVENT TABLE and INNOVATION TABLE: one test per event and per innovation."""

from __future__ import annotations

import pytest

from rules.iron_bridge_gorge import GAME
from rules.iron_bridge_gorge.moves.revenue import revenue_report

from .helpers import at_turn, dice_rng, new_game, texts


def _revenue(
    in_play: dict[int, list[str]], event: str = "nothing", innovations=(), players: int = 3, coins=None
):
    """Run the Revenue Step on a position; return the coin change of every seat and of the bank."""
    state = at_turn(players, in_play=in_play, coins=coins)
    state.event = event
    state.innovations = list(innovations)
    before = [player.coins for player in state.players], state.bank
    events: list = []
    GAME._revenue(state, events)
    gains = [player.coins - old for player, old in zip(state.players, before[0], strict=True)]
    assert sum(gains) + state.bank - before[1] == 0, "money is conserved"
    return gains, state.bank - before[1], events, state


def _report(
    in_play: dict[int, list[str]], seat: int = 0, event: str = "nothing", innovations=(), players: int = 3
):
    table = [in_play.get(index, []) for index in range(players)]
    return revenue_report(GAME.cards, table, seat, event, list(innovations))


def test_revenue_example_of_the_rule_text():
    """REVENUE STEP example: 'You own a Pig Iron Blast Furnace. It produces 4 coin. It requires Charcoal
    Maker, an Iron Ore Mine, and a Limestone Quarry. You own a Charcoal Maker too, so you get to keep that
    coin. You don't, but both your opponents own Iron Ore Mines: You give one of them 1 coin. No one owns
    a Limestone Quarry so you give the Bank 1 coin.'"""
    in_play = {
        0: ["pig-iron-blast-furnace", "charcoal-maker", "timber-yard"],
        1: ["iron-ore-mine"],
        2: ["iron-ore-mine"],
    }
    furnace = _report(in_play).lines[0]
    assert furnace.card == "pig-iron-blast-furnace"
    assert furnace.earned == 4
    assert furnace.kept == ["charcoal-maker"]
    # The first opponent clockwise who owns an Iron Ore Mine (Bob) is paid; the bank gets the Limestone coin.
    assert furnace.payments == [("iron-ore-mine", 1), ("limestone-quarry", None)]
    gains, bank, events, _ = _revenue(in_play)
    # Alice: furnace 4 + Charcoal Maker 2 (Timber kept) + Timber Yard 1 - 2 coins paid.
    assert gains == [5, 2, 1]
    assert bank == -(7 + 1 + 1) + 1
    assert "Alice earned 7 coins; paid Bob 1 coin for Iron Ore; paid the bank 1 coin for Limestone" in texts(
        events
    )


def test_owning_several_copies_of_a_requirement_keeps_every_coin():
    """'If you do not own a Requirement of a resource, you must pay': owning it once covers every resource."""
    gains, _, _, _ = _revenue({0: ["coke-maker", "coke-maker", "coal-mine"]})
    assert gains[0] == 2 + 2 + 1


def test_a_player_who_cannot_pay_a_requirement_pays_what_they_can():
    """Decision: revenue is credited first; a payment the player cannot make is dropped, coins never go negative."""
    gains, _, events, state = _revenue({0: ["pig-iron-blast-furnace"]}, event="worker-shortage", coins={0: 0})
    # Half of 4 is 2, three requirements are missing: two are paid, the third cannot be.
    assert gains[0] == 0 and state.players[0].coins == 0
    assert "could not pay for Limestone" in texts(events)


def test_event_1_nothing():
    """EVENT TABLE 1: 'Nothing noteworthy occurs this Round' - full revenue."""
    gains, _, _, _ = _revenue({0: ["coal-mine", "iron-ore-mine", "farmland"]}, event="nothing")
    assert gains[0] == 3


def test_event_2_worker_shortage_halves_revenue():
    """EVENT TABLE 2: 'All Revenues reduced by half this Round' (decision: each player's total, rounded down,
    before requirement payments, which are unchanged)."""
    gains, _, events, _ = _revenue(
        {0: ["coke-maker", "coal-mine", "farmland"], 1: ["quicklime-kilns"]}, event="worker-shortage"
    )
    # Alice: (2 + 1 + 1) // 2 = 2, plus Bob's coin for her Coal.
    assert gains[0] == 2 + 1
    # Bob: 3 // 2 = 1, minus Coal (to Alice) and Limestone (to the bank).
    assert gains[1] == 1 - 2
    assert "halved by Worker Shortage" in texts(events)


def test_worker_cottages_ignore_worker_shortage():
    """NOTES: 'If you own a Workers Cottage, you are unaffected by Worker Shortages.'"""
    gains, _, _, _ = _revenue(
        {0: ["worker-cottages", "coke-maker", "coal-mine"], 1: ["worker-cottages", "coal-mine"]}
    )
    shortage, _, _, _ = _revenue(
        {0: ["worker-cottages", "coke-maker", "coal-mine"], 1: ["coal-mine", "farmland"]},
        event="worker-shortage",
    )
    assert gains[0] == shortage[0] == 4
    assert shortage[1] == 1


def test_event_3_drought_stops_the_blast_furnace_only():
    """EVENT TABLE 3: 'Water Power Reduced; Blast Furnace generates no Revenue' (decision: no other effect;
    a stopped resource pays nothing for its requirements)."""
    in_play = {0: ["pig-iron-blast-furnace", "coal-mine", "timber-yard"]}
    gains, bank, _, _ = _revenue(in_play, event="drought")
    assert gains[0] == 2 and bank == -2
    assert _report(in_play, event="drought").lines[0].stopped == "Drought or Freeze"


def test_event_4_charcoal_shortage_stops_works_requiring_charcoal():
    """EVENT TABLE 4: 'All Resources requiring Charcoal generate no Revenue' - Blast Furnace, Cast Iron
    Foundry and Wrought Iron Forge stop; the Charcoal Maker itself still produces."""
    in_play = {
        0: [
            "pig-iron-blast-furnace",
            "cast-iron-foundry",
            "wrought-iron-forge",
            "charcoal-maker",
            "timber-yard",
        ]
    }
    report = _report(in_play, event="charcoal-shortage")
    assert [line.stopped for line in report.lines] == ["Charcoal Shortage"] * 3 + [None, None]
    gains, _, _, _ = _revenue(in_play, event="charcoal-shortage")
    assert gains[0] == 2 + 1


def test_event_5_flooding_stops_all_mines():
    """EVENT TABLE 5: 'All Mines generate no Revenue' - Coal, Iron Ore and Clay Mines (decision: a Limestone
    Quarry is not a mine)."""
    in_play = {0: ["coal-mine", "iron-ore-mine", "clay-mine", "limestone-quarry"]}
    gains, _, _, _ = _revenue(in_play, event="flooding")
    assert gains[0] == 1
    assert [line.stopped for line in _report(in_play, event="flooding").lines] == ["Flooding"] * 3 + [None]


@pytest.mark.parametrize(
    ("roll", "event"),
    [(1, "nothing"), (2, "worker-shortage"), (3, "drought"), (4, "charcoal-shortage"), (5, "flooding")],
)
def test_event_step_rolls_one_die_on_the_event_table(roll: int, event: str):
    """EVENT STEP: 'Roll 1D6 once on the Event Table. Events last the entire Round.'"""
    state = new_game()
    state.rng = dice_rng(None, roll)
    events: list = []
    GAME._start_round(state, events)
    assert state.event == event
    assert state.innovations == []
    assert f"Event roll {roll}" in texts(events)


@pytest.mark.parametrize(
    ("roll", "innovation"),
    [
        (1, "steam-pumping-engines"),
        (2, "steam-pumping-engines"),
        (3, "reverberatory-furnace"),
        (4, "reverberatory-furnace"),
        (5, "long-wall-mining"),
        (6, "long-wall-mining"),
    ],
)
def test_event_6_rolls_on_the_innovation_table(roll: int, innovation: str):
    """EVENT TABLE 6: 'Roll on Innovation Table'; 'Innovations last the remainder of the game'."""
    state = new_game()
    state.rng = dice_rng(None, 6, roll)
    GAME._start_round(state, [])
    assert state.event == "innovation"
    assert state.innovations == [innovation]
    # It lasts: the next rounds keep it whatever they roll.
    state.rng = dice_rng(None, 1)
    GAME._start_round(state, [])
    assert state.innovations == [innovation]


def test_rerolling_an_innovation_already_in_existence_does_nothing():
    """INNOVATION TABLE: 'If you reroll an Innovation already in existence, nothing happens.' (decision: no
    new roll is made)."""
    state = new_game()
    state.innovations = ["long-wall-mining"]
    state.rng = dice_rng(None, 6, 5)
    events: list = []
    GAME._start_round(state, events)
    assert state.innovations == ["long-wall-mining"]
    assert state.innovation_roll == "long-wall-mining"
    assert "already in use, nothing happens" in texts(events)


def test_innovation_steam_pumping_engines():
    """INNOVATION 1-2: 'Iron Mines +1 Revenue; Ignore Flooding Events' (every mine ignores Flooding)."""
    in_play = {0: ["iron-ore-mine", "coal-mine", "clay-mine"]}
    gains, _, _, _ = _revenue(in_play, innovations=["steam-pumping-engines"])
    assert gains[0] == 2 + 1 + 1
    flooded, _, _, _ = _revenue(in_play, event="flooding", innovations=["steam-pumping-engines"])
    assert flooded[0] == 4


def test_innovation_reverberatory_furnace_lets_coke_replace_charcoal():
    """INNOVATION 3-4: 'Works requiring Charcoal can now use Coke instead': owning a Coke Maker keeps the
    Charcoal coin, and a Coke Maker owner may be paid instead of the bank."""
    innovations = ["reverberatory-furnace"]
    own_coke = _report({0: ["cast-iron-foundry", "coke-maker"]}, innovations=innovations).lines[0]
    assert own_coke.kept == ["charcoal-maker"]
    assert own_coke.payments == [("pig-iron-blast-furnace", None)]
    buys_coke = _report({0: ["cast-iron-foundry"], 2: ["coke-maker"]}, innovations=innovations).lines[0]
    assert buys_coke.payments == [("pig-iron-blast-furnace", None), ("charcoal-maker", 2)]
    without = _report({0: ["cast-iron-foundry"], 2: ["coke-maker"]}).lines[0]
    assert without.payments == [("pig-iron-blast-furnace", None), ("charcoal-maker", None)]


def test_reverberatory_furnace_works_burn_coke_in_a_charcoal_shortage():
    """Decision: after the Reverberatory Furnace a Charcoal Shortage stops nothing; works requiring Charcoal
    use Coke, so owning only a Charcoal Maker no longer covers them that round."""
    innovations = ["reverberatory-furnace"]
    line = _report(
        {0: ["cast-iron-foundry", "charcoal-maker"], 1: ["coke-maker"]},
        event="charcoal-shortage",
        innovations=innovations,
    ).lines[0]
    assert line.stopped is None and line.earned == 3
    assert line.payments == [("pig-iron-blast-furnace", None), ("charcoal-maker", 1)]


def test_innovation_long_wall_mining():
    """INNOVATION 5-6: 'Iron Mines +1 Revenue'; with Steam Pumping Engines too an Iron Ore Mine earns 3."""
    assert _revenue({0: ["iron-ore-mine", "coal-mine"]}, innovations=["long-wall-mining"])[0][0] == 2 + 1
    both = ["long-wall-mining", "steam-pumping-engines"]
    assert _revenue({0: ["iron-ore-mine"]}, innovations=both)[0][0] == 3


def test_revenue_step_runs_every_round_before_the_bids():
    """ROUND SEQUENCE: development, event, revenue, then initiative: coins arrive before the bidding."""
    state = at_turn(2, in_play={0: ["farmland", "farmland"]})
    state.rng = dice_rng(None, 1)
    events: list = []
    GAME._start_round(state, events)
    assert state.players[0].coins == 12 and state.players[0].income == 2
    assert state.step == "initiative"

"""Every legal choice is reachable by buttons within three presses, in messages Discord accepts.

Seeded random playouts of every registered game (test-only games skipped); at each state the seat's
menu is opened at every level of its hierarchy and checked against Discord's limits."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.interface.components import (
    BUTTON_LABEL,
    MAX_SELECT_OPTIONS,
    OPTION_DESCRIPTION,
    OPTION_LABEL,
    ROOT,
    abbreviate,
    choice_menu,
    distinct_labels,
    menu_entries,
)
from rules import registry
from rules.core import LABEL_MOST, Choice

STATES_PER_GAME = 2000
SECONDS_PER_GAME = 15.0
BIG_GAME_ID = 10**15  # the longest game id the custom_ids must still carry


def _games():
    return [g for g in registry.all_games() if not g.info.id.startswith("test")]


def check_menu(choices: list[Choice]) -> dict[str, int]:
    """Walk the menu from the root; returns the presses each key needs. Asserts the limits."""
    reached: dict[str, int] = {}
    todo = [(ROOT, 0)]
    while todo:
        path, pressed = todo.pop()
        entries = menu_entries(choices, path)
        rows: dict[int, list[str]] = {}
        shown: list[str] = []
        for entry in entries:
            rows.setdefault(entry.row, []).append(entry.kind)
            if entry.kind == "select":
                assert 1 <= len(entry.options) <= MAX_SELECT_OPTIONS
                assert len(entry.label) <= 150
                assert all(len(about) <= OPTION_DESCRIPTION for about in entry.option_descriptions)
                assert len(entry.option_descriptions) == len(entry.options)
                for choice, label in zip(entry.options, entry.option_labels, strict=True):
                    assert len(label) <= OPTION_LABEL
                    shown.append(label)
                    reached.setdefault(choice.key, pressed + 1)
            else:
                assert len(entry.label) <= BUTTON_LABEL
                shown.append(entry.label)
                if entry.kind == "choice":
                    assert entry.choice is not None
                    reached.setdefault(entry.choice.key, pressed + 1)
                elif entry.kind == "open":
                    todo.append((entry.path, pressed + 1))
            custom_id = f"g:{BIG_GAME_ID}:act:0123456789:{entry.choice.key if entry.choice else entry.path}"
            assert len(custom_id) <= 100, custom_id
        assert len(rows) <= 5 and max(rows) <= 4, rows
        for kinds in rows.values():
            assert len(kinds) <= 5
            assert "select" not in kinds or len(kinds) == 1
        if path == ROOT:
            assert 4 not in rows, "the root keeps its last row for Undo and the trade composer"
            buttons = {e.choice.key for e in entries if e.kind == "choice" and e.choice is not None}
            ends = {c.key for c in choices if getattr(c, "ends", False)}
            assert ends <= buttons, f"a way out of the turn hides in a select or a part: {ends - buttons}"
        assert len(set(shown)) == len(shown), [s for s in shown if shown.count(s) > 1]
    return reached


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.info.id)
def test_every_choice_within_three_presses(game) -> None:
    rng = random.Random(f"menus/{game.info.id}")
    states = 0
    biggest = 0
    started = time.monotonic()
    while states < STATES_PER_GAME and time.monotonic() - started < SECONDS_PER_GAME:
        count = rng.choice([game.info.min_players, game.info.max_players])
        state = game.setup([f"Player {i}" for i in range(count)], None, rng.randrange(10**9))
        for _ in range(400):
            if game.result(state) is not None or states >= STATES_PER_GAME:
                break
            seats = sorted(game.to_act(state))
            if not seats:
                break
            seat = rng.choice(seats)
            choices = game.legal_actions(state, seat)
            states += 1
            biggest = max(biggest, len(choices))
            reached = check_menu(choices)
            assert set(reached) == {c.key for c in choices}
            assert max(reached.values(), default=0) <= 3, {k: v for k, v in reached.items() if v > 3}
            state = game.apply(state, seat, rng.choice(choices).action).state
    print(f"{game.info.id}: {states} states checked, largest menu {biggest} choices")
    assert states >= 500


def test_labels_cut_by_discord_stay_distinct() -> None:
    common = "Attack the Mechanized Gunner Patrol at G5 from E4 with everything in range and"
    labels = [common + " Surge: spend 2 steam", common + " Surge: spend 3 steam", "End turn", "End turn"]
    shown = distinct_labels(labels, 80)
    assert len(set(shown)) == 4 and all(len(s) <= 80 for s in shown)
    assert "2 steam" in shown[0] and "3 steam" in shown[1]
    assert distinct_labels(["Draw", "Tax"], 80) == ["Draw", "Tax"]


def test_small_menus_stay_direct_buttons() -> None:
    choices = [Choice(key=f"k{i}", label=f"Move {i}", action={"i": i}, group="G") for i in range(12)]
    entries = menu_entries(choices)
    assert [e.kind for e in entries] == ["choice"] * 12


def test_big_menu_is_a_hierarchy_with_small_groups_direct() -> None:
    moves = [
        Choice(key=f"mv:{u}:{d}", label=f"Gunner {u} → move {d}", action={}, group="Move")
        for u in range(30)
        for d in range(5)
    ]
    end = Choice(key="end", label="End turn", action={}, group="Turn")
    heal = Choice(key="heal", label="Heal", action={}, group="Repair")
    choices = [*moves, end, heal]
    root = menu_entries(choices)
    assert {e.label for e in root if e.kind == "choice"} == {"End turn", "Heal"}
    opened = [e for e in root if e.kind == "open"]
    assert [e.label for e in opened] == ["Move (150)…"]
    assert set(check_menu(choices)) == {c.key for c in choices}


def test_real_views_fit_discord() -> None:
    async def build() -> None:
        game = next(g for g in _games() if g.info.id == "iron-and-brass")
        rng = random.Random(3)
        state = game.setup(["A", "B"], None, 3)
        for _ in range(60):
            seat = sorted(game.to_act(state))[0]
            choices = game.legal_actions(state, seat)
            view = choice_menu(BIG_GAME_ID, choices)
            for item in view.children:
                assert len(item.custom_id) <= 100  # type: ignore[attr-defined]
            state = game.apply(state, seat, rng.choice(choices).action).state

    asyncio.run(build())


def _big_menu(count: int, group: str = "Build") -> list[Choice]:
    return [
        Choice(key=f"b{i}", label=f"Build site {i} → factory", action={"i": i}, group=group)
        for i in range(count)
    ]


@pytest.mark.parametrize("count", [21, 26, 60, 99, 150, 400])
def test_end_turn_is_a_root_button_whatever_the_menu_size(count: int) -> None:
    """Issue 36: with more than 25 choices "End turn" hid inside a dropdown. A choice the game marks
    as the way out (`Choice.ends`) is a button of the root message, on a row of its own."""
    end = Choice(key="end", label="End turn", action={}, group="Build", style="primary", ends=True)
    choices = [*_big_menu(count), end]
    root = menu_entries(choices)
    pinned = [e for e in root if e.kind == "choice" and e.choice is end]
    assert len(pinned) == 1 and pinned[0].style == "primary"
    assert all(e.row < pinned[0].row for e in root if e is not pinned[0])
    assert all(end not in e.options for e in root)
    reached = check_menu(choices)
    assert reached["end"] == 1 and set(reached) == {c.key for c in choices}
    assert max(reached.values()) <= 3


def test_unmarked_end_turn_is_not_pinned_and_small_menus_keep_their_order() -> None:
    """Only the game's mark pins a choice (no English words are read), and a menu of buttons only
    keeps the game's order."""
    words = Choice(key="end", label="End turn", action={}, group="Build")
    assert all(e.kind == "select" for e in menu_entries([*_big_menu(30), words]))
    end = Choice(key="end", label="End turn", action={}, group="Build", ends=True)
    small = [end, *_big_menu(5)]
    assert [e.choice.key for e in menu_entries(small) if e.choice] == [c.key for c in small]


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.info.id)
def test_every_game_marks_its_way_out(game) -> None:
    """Each game's end-turn, pass or done choice carries `ends`, so the menus can pin it: found by
    playing until a seat is offered one."""
    rng = random.Random(f"ends/{game.info.id}")
    state = game.setup([f"Player {i}" for i in range(game.info.min_players)], None, rng.randrange(10**9))
    for _ in range(300):
        seat = sorted(game.to_act(state))[0]
        choices = game.legal_actions(state, seat)
        marked = [c for c in choices if c.ends]
        if marked:
            assert len(marked) < len(choices) or len(choices) == 1
            return
        state = game.apply(state, seat, rng.choice(choices).action).state
        assert game.result(state) is None
    raise AssertionError(f"{game.info.id} never offered a choice marked `ends`")


def _long_plays(count: int) -> list[Choice]:
    """City of Iron's play labels (`rules/city_of_iron/moves/cards.py`): a settle's long description,
    then the cards that pay, which is all that tells the variants apart."""
    head = "Free: Expedition Leader: settle The Windswept Northern Isles (dist 3) as a 3-city (citizen)"
    payers = ["Cartographer, Scout", "Cartographer, Merchant", "Scout, Merchant", "Cartographer"]
    return [
        Choice(key=f"play:{i}", label=f"{head}; pay with {payers[i % 4]} #{i}", action={"i": i}, group="Play")
        for i in range(count)
    ]


@pytest.mark.parametrize("count", [4, 24, 40])
def test_long_labels_keep_what_tells_them_apart(count: int) -> None:
    """Issue 36: labels cut at Discord's limit hid the payers ('…(citizen); pay with Cartographe…').
    The rules core now keeps labels up to 200 characters; the menu shortens the shared description,
    keeps the distinguishing end, and puts the description in the select option's own line."""
    choices = _long_plays(count)
    assert all(len(c.label) > OPTION_LABEL for c in choices)
    shown: list[str] = []
    for entry in menu_entries(choices):
        if entry.kind == "select":
            for choice, label, about in zip(
                entry.options, entry.option_labels, entry.option_descriptions, strict=True
            ):
                assert label.endswith(choice.label.split("; ")[-1]), (label, choice.label)
                assert about and choice.label.startswith(about) and len(about) <= OPTION_DESCRIPTION
                assert label.endswith(choice.label[len(about) :].lstrip(" →:;,")), (label, about)
                shown.append(label)
        else:
            assert entry.choice is not None and len(entry.label) <= BUTTON_LABEL
            assert entry.label.endswith(entry.choice.label.split("; ")[-1]), entry.label
            shown.append(entry.label)
    assert len(shown) == count == len(set(shown))
    assert set(check_menu(choices)) == {c.key for c in choices}


def test_core_keeps_labels_to_200_and_short_ones_unchanged() -> None:
    """The core cuts only past `LABEL_MOST`; labels that fit Discord are shown exactly as written."""
    long = Choice(key="k", label="x" * 250, action={})
    assert len(long.label) == LABEL_MOST and long.label.endswith("…")
    assert abbreviate("Take a loan of 10", OPTION_LABEL) == ("Take a loan of 10", "")
    entries = menu_entries([Choice(key=f"k{i}", label=f"Move {i}", action={}) for i in range(30)])
    assert all(about == "" for e in entries for about in e.option_descriptions)

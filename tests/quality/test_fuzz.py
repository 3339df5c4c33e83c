"""Fuzzing every registered game's contract with hypothesis.

Each example sets a game up (with fuzzed options), then runs a sequence mixing legal choices, legal
actions played by the wrong seat, actions kept from earlier states, mutated action dicts, malformed
JSON and arbitrary values. The properties, for every game:

- nothing but `RuleError` (MalformedAction included) or pydantic's `ValidationError` ever escapes;
- a refused action leaves the state exactly as it was (its JSON), and so does every accepted one
  (the game works on a copy), every `legal_actions` and every `view`;
- an accepted action that was not one of the offered choices (open spaces such as trade offers)
  still leaves every invariant true;
- after every move the generic invariants hold (see `check_invariants`), and the log replays to the
  same state.

The CI run is short and deterministic; `FUZZ_EXAMPLES=2000 pytest tests/quality/test_fuzz.py` (and
`FUZZ_STEPS`) runs the long one.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from rules import registry
from rules.core import Game, Rejection, RuleError

GAMES = registry.all_games()
LONG = int(os.environ.get("FUZZ_EXAMPLES", "0"))
EXAMPLES = LONG or 8
STEPS = int(os.environ.get("FUZZ_STEPS", "0")) or (300 if LONG else 50)
FAST_FORWARD = 400 if LONG else 150

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not LONG,
    # Shrinking a long action sequence can take minutes: only when asked (FUZZ_SHRINK=1).
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target]
    + ([Phase.shrink] if os.environ.get("FUZZ_SHRINK") else []),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    print_blob=True,
)

REFUSALS = (RuleError, ValidationError)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([-1, 0, 1, 2, 99, 10**9, -(10**9)])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
junk_raw = st.one_of(
    json_values,
    st.text(max_size=40),
    st.binary(max_size=40),
    st.sampled_from(["", "{", "[]", "null", '{"kind": ', '{"kind": null}', "\x00", '{"kind": "pass"']),
)


def ids(game: Game) -> str:
    return game.info.id


# ---- the invariants ----------------------------------------------------------------------------
def redacts(public: Any, private: Any) -> bool:
    """True when `public` is `private` with some values replaced by None (hidden), nothing added."""
    if public is None:
        return True
    if isinstance(public, dict) and isinstance(private, dict):
        return public.keys() == private.keys() and all(redacts(public[k], private[k]) for k in public)
    if isinstance(public, list) and isinstance(private, list):
        return len(public) == len(private) and all(
            redacts(a, b) for a, b in zip(public, private, strict=True)
        )
    return public == private


def check_invariants(game: Game, state: Any, players: int) -> None:
    before = game.dump_state(state)
    seats = set(range(players))
    to_act = game.to_act(state)
    result = game.result(state)
    assert to_act <= seats, f"to_act {to_act} names a seat outside {seats}"
    if result is not None:
        assert not to_act, "a finished game still asks seats to act"
        placed = [seat for group in result.ranking for seat in group]
        assert sorted(placed) == sorted(seats), (
            f"the ranking {result.ranking} is not a partition of the seats"
        )
        assert set(result.scores) <= seats
    else:
        assert to_act, "nobody can act but the game has no result: the game is stuck"
    for seat in seats:
        choices = game.legal_actions(state, seat)
        if seat not in to_act:
            assert choices == [], f"seat {seat} is not to act but has choices"
            continue
        assert choices, f"seat {seat} must act but has no choice"
        keys = [choice.key for choice in choices]
        assert len(keys) == len(set(keys)), f"duplicate choice keys for seat {seat}: {keys}"
        for choice in choices:
            game.parse_action(choice.action)  # every offered action can be read back
            json.dumps(choice.action)
    public = game.view(state, None)
    public_json = json.loads(public.model_dump_json())
    views = {None: public}
    for seat in seats:
        views[seat] = game.view(state, seat)
    for seat, view in views.items():
        assert view.seat == seat and view.game == game.info.id
        assert set(view.to_act) == to_act, f"view.to_act {view.to_act} != to_act {to_act}"
        assert view.finished == (result is not None)
        assert view.headline
        assert type(view).model_validate_json(view.model_dump_json()) == view, "view JSON round trip"
        if seat is not None:
            mine = json.loads(view.model_dump_json())
            mine["seat"] = None
            assert redacts(public_json, mine), (
                f"the public view shows something seat {seat}'s view does not (or differently)"
            )
    assert game.view(state, None) == public, "the public view is not a function of the state"
    reloaded = game.load_state(before)
    assert game.dump_state(reloaded) == before, "state JSON round trip"
    assert game.dump_state(state) == before, "reading the state (to_act, choices, views) changed it"


# ---- fuzzed moves ---------------------------------------------------------------------------------
def mutate(data: st.DataObject, action: dict[str, Any]) -> Any:
    mutated = json.loads(json.dumps(action))
    how = data.draw(
        st.sampled_from(["replace", "drop", "add", "retype", "nest", "as_json"]), label="mutation"
    )
    keys = list(mutated)
    if how == "replace" and keys:
        key = data.draw(st.sampled_from(keys), label="replaced key")
        mutated[key] = data.draw(json_values, label="new value")
    elif how == "drop" and keys:
        mutated.pop(data.draw(st.sampled_from(keys), label="dropped key"))
    elif how == "add":
        mutated[data.draw(st.text(min_size=1, max_size=8), label="added key")] = data.draw(json_scalars)
    elif how == "retype" and keys:
        key = data.draw(st.sampled_from(keys), label="retyped key")
        value = mutated[key]
        mutated[key] = (
            str(value) if not isinstance(value, str) else data.draw(st.sampled_from([1, None, [value]]))
        )
    elif how == "nest" and keys:
        key = data.draw(st.sampled_from(keys), label="nested key")
        mutated[key] = {"value": mutated[key]}
    elif how == "as_json":
        return json.dumps(mutated)
    return mutated


def attempt(game: Game, state: Any, seat: int, raw: Any) -> Any | None:
    """Apply `raw` for `seat`: the new state, or None when refused (the state checked untouched)."""
    before = game.dump_state(state)
    try:
        applied = game.apply(state, seat, raw)
    except REFUSALS:
        assert game.dump_state(state) == before, "a refused action changed the state"
        return None
    assert game.dump_state(state) == before, "an accepted action changed the state it was given"
    # An accepted action need not be one of the offered choices: some action spaces are open (a trade
    # offer of any goods) and the choices list a sample. The invariants are checked after it all the
    # same; only a no-op acceptance is a finding (test_actions_that_are_not_offered_are_refused).
    for event in applied.events:
        assert set(event.private) <= set(range(len(game.view(state, None).players)))
    return applied.state


def players_for(data: st.DataObject, game: Game) -> list[str]:
    low, high = game.info.min_players, game.info.max_players
    count = data.draw(st.integers(min_value=low, max_value=min(high, low + 3)), label="players")
    return [f"p{i}" for i in range(count)]


def option_values(game: Game) -> st.SearchStrategy[dict[str, Any]]:
    """Valid values for each option (the fuzzed game must start)."""
    fields = {}
    for spec in game.info.options:
        if spec.kind == "bool":
            fields[spec.name] = st.booleans() | st.sampled_from(["on", "off", "yes", "0"])
        elif spec.kind == "int":
            low = spec.min if spec.min is not None else -1000
            high = spec.max if spec.max is not None else 1000
            fields[spec.name] = st.integers(min_value=low, max_value=min(high, low + 40)) | st.just(
                spec.default
            )
        else:
            fields[spec.name] = st.sampled_from(spec.choices)
    return st.fixed_dictionaries({}, optional=fields)


def bad_option_values(game: Game) -> st.SearchStrategy[dict[str, Any]]:
    """Options with at least one wrong name, type or out-of-range value."""
    wrong = []
    for spec in game.info.options:
        values: list[Any] = [None, [], {}, "", "nonsense", 1.5]
        if spec.kind == "int":
            if spec.min is not None:
                values += [spec.min - 1, -(2**63)]
            if spec.max is not None:
                values += [spec.max + 1, 2**63]
            values += ["ten", True] if spec.min is not None and spec.min > 1 else ["ten"]
        elif spec.kind == "bool":
            values += [2, "maybe", "ON!"]
        else:
            values += [spec.choices[0].upper() + "x", 0]
        wrong.append(st.tuples(st.just(spec.name), st.sampled_from(values)))
    wrong.append(st.tuples(st.text(min_size=1, max_size=10), json_scalars))
    return st.tuples(option_values(game), st.one_of(wrong)).map(
        lambda pair: {**pair[0], pair[1][0]: pair[1][1]}
    )


@pytest.mark.parametrize("game", GAMES, ids=ids)
@FUZZ
@given(data=st.data())
def test_setup_with_fuzzed_options_starts_or_refuses_cleanly(game: Game, data: st.DataObject) -> None:
    count = data.draw(st.integers(min_value=0, max_value=game.info.max_players + 2), label="players")
    players = [f"p{i}" for i in range(count)]
    options = data.draw(option_values(game) | bad_option_values(game), label="options")
    seed = data.draw(st.integers(min_value=0, max_value=2**63) | st.sampled_from([0, 1, 2**31 - 1]))
    try:
        resolved = game.resolve_options(options)
    except RuleError as error:
        assert error.reason == Rejection.BAD_OPTIONS and error.message
        resolved = None
    try:
        state = game.setup(players, options, seed)
    except RuleError as error:
        assert error.reason == Rejection.BAD_OPTIONS and error.message
        assert resolved is None or not game.info.min_players <= count <= game.info.max_players
        return
    assert resolved is not None and game.info.min_players <= count <= game.info.max_players
    assert game.setup(players, resolved, seed) == state, "setup is not deterministic"
    check_invariants(game, state, count)


@pytest.mark.parametrize("game", GAMES, ids=ids)
@FUZZ
@given(data=st.data())
def test_fuzzed_action_sequences_keep_every_invariant(game: Game, data: st.DataObject) -> None:
    players = players_for(data, game)
    seed = data.draw(st.integers(min_value=0, max_value=2**31), label="seed")
    options = data.draw(option_values(game), label="options")
    state = game.setup(players, options, seed)
    log: list[tuple[int, Any]] = []
    seen_actions: list[dict[str, Any]] = []
    check_invariants(game, state, len(players))

    def play(seat: int, raw: Any) -> None:
        nonlocal state
        new = attempt(game, state, seat, raw)
        if new is not None:
            log.append((seat, raw))
            state = new
            check_invariants(game, state, len(players))

    # Fast-forward a random number of legal moves so late positions are fuzzed too.
    skip = data.draw(st.integers(min_value=0, max_value=FAST_FORWARD), label="fast forward")
    picker = data.draw(st.randoms(use_true_random=False), label="random")
    for _ in range(skip):
        if game.result(state) is not None:
            break
        seat = picker.choice(sorted(game.to_act(state)))
        choice = picker.choice(game.legal_actions(state, seat))
        seen_actions.append(choice.action)
        state = game.apply(state, seat, choice.action).state
        log.append((seat, choice.action))
    check_invariants(game, state, len(players))

    for _ in range(STEPS):
        to_act = sorted(game.to_act(state))
        kind = data.draw(
            st.sampled_from(
                ["legal", "legal", "legal", "wrong_seat", "stale", "mutated", "junk", "bad_seat"]
            ),
            label="kind",
        )
        if not to_act:  # game over: everything must be refused
            seat = data.draw(st.integers(min_value=0, max_value=len(players) - 1))
            raw = data.draw(junk_raw) if kind == "junk" or not seen_actions else picker.choice(seen_actions)
            assert attempt(game, state, seat, raw) is None, "a move was accepted after the game ended"
            break
        seat = data.draw(st.sampled_from(to_act), label="seat")
        choices = game.legal_actions(state, seat)
        choice = choices[data.draw(st.integers(min_value=0, max_value=len(choices) - 1), label="choice")]
        seen_actions.append(choice.action)
        if kind == "legal":
            how = data.draw(st.sampled_from(["dict", "json", "model"]), label="as")
            raw = {
                "dict": choice.action,
                "json": json.dumps(choice.action),
                "model": game.parse_action(choice.action),
            }[how]
            new = attempt(game, state, seat, raw)
            assert new is not None, f"the offered choice {choice.key!r} was refused"
            log.append((seat, choice.action))
            state = new
            check_invariants(game, state, len(players))
        elif kind == "wrong_seat":
            others = [s for s in range(len(players)) if s not in to_act]
            if others:
                other = data.draw(st.sampled_from(others), label="wrong seat")
                with pytest.raises(RuleError) as refused:
                    game.apply(state, other, choice.action)
                assert refused.value.reason == Rejection.NOT_YOUR_TURN
        elif kind == "stale":
            play(seat, data.draw(st.sampled_from(seen_actions), label="stale action"))
        elif kind == "mutated":
            play(seat, mutate(data, choice.action))
        elif kind == "junk":
            play(seat, data.draw(junk_raw, label="junk"))
        else:  # a seat number that does not exist
            bad = data.draw(st.sampled_from([-1, len(players), 99, -(10**6)]), label="bad seat")
            with pytest.raises(RuleError):
                game.apply(state, bad, choice.action)

    # The log replays to the same state: setup(seed) plus the actions is the whole game.
    replayed = game.setup(players, options, seed)
    for seat, raw in log:
        replayed = game.apply(replayed, seat, raw).state
    assert game.dump_state(replayed) == game.dump_state(state), "the action log does not replay"


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_parse_action_refuses_garbage_with_a_sentence(game: Game) -> None:
    for raw in ["", "{", "null", "[]", b"\xff\xfe", 0, None, [], {}, {"kind": None}, {"kind": "nope"}]:
        with pytest.raises(RuleError) as refused:
            game.parse_action(raw)
        assert refused.value.reason == Rejection.MALFORMED and len(refused.value.message) < 1000


def test_a_huge_malformed_action_gets_a_short_sentence() -> None:
    """pydantic's error echoes the input; the sentence is clipped (it was 10,000 characters long)."""
    game = registry.get("test-highcard")
    with pytest.raises(RuleError) as refused:
        game.parse_action({"kind": "x" * 10_000})
    assert len(refused.value.message) < 1000


def test_actions_that_are_not_offered_are_refused() -> None:
    accepted = []
    brass = registry.get("iron-and-brass")
    state = brass.setup(["p0", "p1"], {}, 0)
    seat = min(brass.to_act(state))
    pick = next(c.action for c in brass.legal_actions(state, seat) if c.action["kind"] == "pick")
    state = brass.apply(state, seat, pick).state
    if pick not in [c.action for c in brass.legal_actions(state, seat)]:
        with contextlib.suppress(RuleError):
            brass.apply(state, seat, pick)
            accepted.append(("iron-and-brass", pick))
    iron = registry.get("city-of-iron")
    state = iron.setup(["p0", "p1", "p2"], {}, 23)
    picker = random.Random(23)
    for _ in range(17):  # a seeded random game reaches a purchase step with nothing selected
        seat = picker.choice(sorted(iron.to_act(state)))
        state = iron.apply(state, seat, picker.choice(iron.legal_actions(state, seat)).action).state
    for seat in sorted(iron.to_act(state)):
        if {"kind": "clear"} not in [c.action for c in iron.legal_actions(state, seat)]:
            with contextlib.suppress(RuleError):
                iron.apply(state, seat, {"kind": "clear"})
                accepted.append(("city-of-iron", {"kind": "clear"}))
    assert not accepted, accepted


def test_reading_a_city_of_iron_state_does_not_change_it() -> None:
    game = registry.get("city-of-iron")
    for seed in range(20):
        state = game.setup(["a", "b"], {"expansion": True}, seed)
        picker = random.Random(seed)
        for _ in range(400):
            if game.result(state) is not None:
                break
            before = game.dump_state(state)
            for seat in sorted(game.to_act(state)):
                game.legal_actions(state, seat)
            assert game.dump_state(state) == before, f"seed {seed}: legal_actions changed the state"
            seat = picker.choice(sorted(game.to_act(state)))
            state = game.apply(state, seat, picker.choice(game.legal_actions(state, seat)).action).state

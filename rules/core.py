"""The contract every game implements, and the small pieces they share.

The bot never knows a game's rules: it asks the game who must act, which choices each seat has,
applies what a seat picked, and shows views. Everything here is pure: no Discord, no I/O, no clock
and no global random, so `setup(seed)` plus the action log replays any game exactly.

A game subclasses `Game` and fills the underscore hooks; the public methods around them do the
checks every game needs (game over, whose turn, parsing) so no game can forget them.

What `setup` itself rolled or decided has no move to report it: `Game.opening_events` tells it, and the
bot announces those events in the game's first post.

The bot posts a new turn message only at a handoff (the seats to act change) or after a move with an
`Event.urgent` event; otherwise it edits the last post. Games mark urgent only what others must see at
once (a battle's result, revealed bids, a trade offered, a round's scoring, the end of the game).
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, MutableSequence, Sequence
from enum import StrEnum
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from rules import words

Seat = int
"""A seat is its index in the game's player list (0 = first player to join)."""


class Rejection(StrEnum):
    """Why an action was refused, so the bot can word each cause its own way."""

    ILLEGAL = "illegal"
    """The action is well formed but the rules do not allow it now."""
    NOT_YOUR_TURN = "not_your_turn"
    GAME_OVER = "game_over"
    MALFORMED = "malformed"
    """The action could not be read at all (bad JSON, unknown field, out-of-range value)."""
    BAD_OPTIONS = "bad_options"


class RuleError(Exception):
    """A refusal with a sentence a player understands; the state it was raised from is untouched."""

    def __init__(self, message: str, reason: Rejection = Rejection.ILLEGAL) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason


class MalformedAction(RuleError):
    """The action could not be parsed: a client or typing problem rather than a rules problem."""

    def __init__(self, message: str) -> None:
        super().__init__(message, Rejection.MALFORMED)


class Model(BaseModel):
    """Base for states, actions, events and views: strict about unknown fields, JSON round-trippable."""

    model_config = ConfigDict(extra="forbid")


class Rng(Model):
    """A seeded generator that lives inside the game state.

    Each draw builds a fresh `random.Random` from (seed, counter) and advances the counter, so the
    state alone says what the next shuffle or die roll will be and replays are exact.
    """

    seed: int
    counter: int = 0

    def _next(self) -> random.Random:
        generator = random.Random(f"{self.seed}/{self.counter}")
        self.counter += 1
        return generator

    def randint(self, low: int, high: int) -> int:
        return self._next().randint(low, high)

    def die(self, sides: int = 6) -> int:
        return self.randint(1, sides)

    def choice(self, items: Sequence[Any]) -> Any:
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self._next().randrange(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self._next().shuffle(items)

    def shuffled(self, items: Sequence[Any]) -> list[Any]:
        copy = list(items)
        self.shuffle(copy)
        return copy


_SCALARS = frozenset({str, int, float, bool, type(None)})
_new = object.__new__
_set = object.__setattr__


def copied(value: Any) -> Any:
    """A deep copy of the shapes game states hold: scalars, lists and dicts of scalars or of records,
    `Record` states and the Rng (anything else, such as a pydantic model inside a state, falls back to
    `copy.deepcopy`). A list's or dict's items are all of one kind, so the first tells whether they need
    copying; no object is shared between two places of a state, so no memo is needed. `Game.apply`
    copies the state on every move, and the computer player's search once per iteration."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        if not value or type(value[0]) in _SCALARS:
            return value.copy()
        if isinstance(value[0], Record):
            return [item.__deepcopy__() for item in value]
        return [copied(item) for item in value]
    if kind is dict:
        if not value or type(next(iter(value.values()))) in _SCALARS:
            return value.copy()
        return {key: copied(item) for key, item in value.items()}
    if isinstance(value, Record):
        return value.__deepcopy__()
    if kind is Rng:
        return Rng(seed=value.seed, counter=value.counter)
    return copy.deepcopy(value)


M = TypeVar("M", bound=BaseModel)


def assembled(model: type[M], values: dict[str, Any], fields_set: set[str] | None = None) -> M:
    """`model(**values)` without validation, for values the rules built of exactly the declared types,
    given in declaration order: views and choices are built for every position the computer players
    look at, and validating them was most of that time (the tests validate them). Give every field: one
    left out has no value at all, not its default (`tests/rules/test_choice_fields.py` checks every
    game's choices). `fields_set`: the fields that count as set (default: those given)."""
    made = _new(model)
    _set(made, "__dict__", values)
    _set(made, "__pydantic_fields_set__", set(values) if fields_set is None else fields_set)
    _set(made, "__pydantic_extra__", None)
    _set(made, "__pydantic_private__", None)
    return made


class Record:
    """Base of every game's state (and the records inside it): a pydantic dataclass rather than a
    pydantic model, because the rules read and write their state all the time (a random City of Iron
    game reads some 15,000 of its fields).

    Why not a model: on CPython 3.11 every attribute read of a pydantic model passes through the slot
    hook that `BaseModel.__getattr__` installs, which the interpreter cannot specialize, so it costs
    several times a dataclass field read (a plain instance read), and every assignment passes
    `BaseModel.__setattr__`. A pydantic dataclass has neither, and pydantic still checks it as it
    checks a model: its `__init__` validates what the rules build, `Game.dump_state` and `load_state`
    go through a `TypeAdapter` (the same JSON as `model_dump_json`), and `extra="forbid"` refuses a
    snapshot with unknown keys.

    Subclasses are `@pydantic.dataclasses.dataclass(kw_only=True)` (fields with defaults may come
    first, as in the models). A deep copy copies the field dict, several times faster than
    `copy.deepcopy`; a class that knows its fields' shapes may override `_fields_copy`."""

    __pydantic_config__: ClassVar[ConfigDict] = ConfigDict(extra="forbid")

    def _fields_copy(self) -> dict[str, Any]:
        """The fields' values, deep-copied, in their order."""
        values = self.__dict__.copy()
        for key, value in values.items():
            if type(value) not in _SCALARS:
                values[key] = copied(value)
        return values

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Any:
        return self._clone(self._fields_copy())

    def _clone(self, values: dict[str, Any]) -> Any:
        """An instance of this class holding `values` (already copies), without running `__init__`."""
        made = _new(type(self))
        _set(made, "__dict__", values)
        return made


class FlatRecord(Record):
    """A `Record` whose fields are all scalars: a copy of its field dict is a deep copy."""

    def _fields_copy(self) -> dict[str, Any]:
        return self.__dict__.copy()


class OptionSpec(Model):
    """One lobby option of a game; the bot builds its lobby controls from these.

    `name` and a choice's values are keys (what `/game new options:` takes and a saved file holds);
    players read `label` and `text(value)`, never a key."""

    name: str
    label: str
    kind: Literal["bool", "int", "choice"]
    default: bool | int | str
    description: str = ""
    """What the option does, including what 0 means where 0 is allowed (random, the rules' default)."""
    choices: list[str] = Field(default_factory=list)
    labels: dict[str, str] = Field(default_factory=dict)
    """A choice option's values in words, e.g. {'per_card': '1 VP per stored building'}."""
    zero: str = ""
    """An int option's value 0 in words where 0 means something else than a count, e.g. 'random map'."""
    min: int | None = None
    max: int | None = None
    before: bool | int | str | None = None
    """The value a game created before this option existed plays with (None: `default`). An option added
    to change a rule keeps the games already under way on the rule they started with: their stored
    options (and saved files) lack it, and `Game.stored_options` fills this value in."""

    def text(self, value: Any) -> str:
        """The value in words: 'on'/'off', a choice's label, 0 as `zero` says, else the number."""
        if self.kind == "bool":
            return "on" if value else "off"
        if self.kind == "choice":
            return self.labels.get(str(value), str(value).replace("_", " "))
        if value == 0 and self.zero:
            return self.zero
        return str(value)

    def line(self, value: Any) -> str:
        """'Stored building penalty: 1 VP per stored building', 'Turns: the guide's length'."""
        return f"{self.label}: {self.text(value)}"


class GameInfo(Model):
    """Facts about a game declared once: the bot and the tests read them instead of guessing."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    min_players: int
    max_players: int
    summary: str
    hidden_information: bool
    randomness: bool
    simultaneous: bool
    """Some steps ask several seats at once (secret bids, simultaneous purchases)."""
    options: tuple[OptionSpec, ...] = ()

    def players_text(self) -> str:
        """'2 players', '2–4 players' (the seats the game takes)."""
        if self.min_players == self.max_players:
            return words.count(self.min_players, "player")
        return f"{self.min_players}–{self.max_players} players"

    def option_lines(self, values: Mapping[str, Any]) -> list[str]:
        """Every option of the game as its label and value in words (a value missing from `values`, as
        in a game stored before the option existed, reads as its default)."""
        return [spec.line(values.get(spec.name, spec.default)) for spec in self.options]


class TradeGood(Model):
    """One kind of thing a trade can move (coins, a card, a resource), as the trade composer lists it."""

    key: str
    """What the game's `trade_action` receives, e.g. 'coins', 'stone', 'hand:blast_furnace'."""
    label: str
    """What players type and read, e.g. 'Blast Furnace (from hand)'."""
    most: int | None = None
    """How many that side holds, when the proposer may know it; None when hidden (another's hand)."""


class TradePartner(Model):
    seat: int
    name: str
    asks: list[TradeGood]
    """What the proposer may ask of this partner."""


class TradeForm(Model):
    """What a seat may put into a trade proposal now: the bot's composer is built from it, for any game."""

    gives: list[TradeGood]
    partners: list[TradePartner]
    note: str = ""
    """A rule to remind the proposer of, e.g. 'Promises are just chat: only goods move.'"""


LABEL_MOST = 200
"""A label's longest: twice what a Discord select option shows, so the part that tells two moves
apart reaches the bot, which fits it to its buttons (80) and option labels (100, the rest in the
option's description). Issue 36: cut at 100 here, long plays lost their payers ('…; pay with Cartographe…')."""


def fit_label(text: str) -> str:
    """A label names players and cards, whose names can be long: cut it to `LABEL_MOST` characters
    rather than refuse the seat its choices (`Choice` and `built_choice` both cut this way)."""
    return text if len(text) <= LABEL_MOST else text[: LABEL_MOST - 1] + "…"


TimeoutKind = Literal["pass", "safe"]
"""The kinds of timeout choice a game declares (`Choice.timeout`)."""


class Choice(Model):
    """One thing a seat may do now, as the bot offers it (button, select option, autocomplete)."""

    key: str = Field(max_length=60)
    """Stable, short and unique among the seat's current choices; it travels in button ids."""
    label: str = Field(max_length=LABEL_MOST)
    action: dict[str, Any]
    """The action as JSON, exactly what `apply` receives when this choice is picked."""
    group: str = ""
    """Choices with the same group are offered together (one select menu, one heading)."""
    path: list[str] = Field(default_factory=list)
    """Optional finer grouping inside `group`, outermost first (e.g. ["Gunner at E4"] for its moves):
    when a seat's choices do not fit one message, the bot offers the group, then these parts, then the
    choices. Without it the bot derives the parts from the labels (the text before " → ", ": ", ...)."""
    style: Literal["primary", "secondary", "success", "danger"] = "secondary"
    timeout: TimeoutKind | None = None
    """What the table's clock plays for a seat that ran out of time, declared by the game: 'pass' skips
    the decision as the rules allow (a pass, ending a turn); 'safe' is the game's default where no pass
    exists (a zero bid). One choice per situation, of one kind (`tests/rules/test_timeouts.py`); none
    means the table keeps waiting (`Game.timeout_choice`; each game's table: `data/<game>/README.md`)."""
    ends: bool = False
    """The seat's way out of the decision: end the turn, pass, done choosing. The bot keeps it a button
    at the top of the seat's menu, never inside a select or a part, however many other choices there
    are (issue 36). Not stored anywhere: choices are rebuilt from the state, so old games get it too."""

    @field_validator("label", mode="before")
    @classmethod
    def _fit_label(cls, value: Any) -> Any:
        return fit_label(value) if isinstance(value, str) else value


_BUILT_CHOICE_SET = frozenset({"key", "label", "action", "group", "style"})


def built_choice(
    key: str,
    label: str,
    action: dict[str, Any],
    group: str = "",
    style: str = "secondary",
    *,
    ends: bool = False,
    timeout: TimeoutKind | None = None,
) -> Choice:
    """A Choice without validation, for the games' menus: they are rebuilt after every move, and a
    search builds them for every position it looks at, so validating each (or pydantic's
    `model_construct`, which inspects `path`'s default factory on every call) was the engines' hotspot.
    The result equals `Choice(key=..., label=..., action=..., group=..., style=...)`: the label is cut
    as the validator cuts it, and the key must already fit (`tests/rules/test_choice_fields.py`
    re-validates every game's choices)."""
    values: dict[str, Any] = {
        "key": key,
        "label": fit_label(label),
        "action": action,
        "group": group,
        "path": [],
        "style": style,
        "timeout": timeout,
        "ends": ends,
    }
    fields_set = set(_BUILT_CHOICE_SET) | ({"ends"} if ends else set()) | ({"timeout"} if timeout else set())
    return assembled(Choice, values, fields_set)


def declared(choice: Choice, timeout: TimeoutKind) -> Choice:
    """A copy of `choice` declared as the clock's `timeout` choice. A copy, never the choice itself:
    games build many choices once and share them (lru caches), and the same choice may be the timeout
    in one situation and not in another (a menu's first build)."""
    return assembled(
        Choice, {**vars(choice), "timeout": timeout}, set(choice.__pydantic_fields_set__) | {"timeout"}
    )


def first_declared(choices: list[Choice], timeout: TimeoutKind) -> list[Choice]:
    """`choices` with the first one declared (`declared`): a situation whose timeout is its menu's first
    move (a fresh list; empty stays empty)."""
    return [declared(choices[0], timeout), *choices[1:]] if choices else []


class Event(Model):
    """What a move did, one line each; public by default, with lines only one seat may read."""

    text: str
    """The public line; empty when the move has nothing new to tell the table (a further secret choice
    after 'alice is choosing cards.'), and then only `private` speaks."""
    private: dict[Seat, str] = Field(default_factory=dict)
    reveals: bool = False
    """True when hidden information or randomness came out (a draw, a die): such moves cannot be undone."""
    urgent: bool = False
    """True when others must see this now, so the table gets a new post and pings even if the same seat
    acts on (a battle's result, bids revealed, a trade offered, the end of a round's scoring...). Left
    False for routine moves (build, move, draw, end a turn): while one seat goes on acting, the bot
    edits its post in place. Each game lists its urgent events in `data/<game>/README.md`; old action
    logs without the field load as False."""


class Result(Model):
    """The end of a game: scores, the order with tie-breaks applied, and why."""

    scores: dict[Seat, int]
    ranking: list[list[Seat]]
    """Places best first; seats sharing a place after every tie-break share a list."""
    reason: str
    """How the winner was decided, e.g. 'Mary wins with 41 VP; Sam and Julia tie on VP, Sam has more coins'."""
    breakdown: dict[Seat, dict[str, int]] = Field(default_factory=dict)
    no_winner: bool = False
    """Everybody lost (e.g. a cooperative or solo game lost to the game itself); the ranking still orders seats."""
    scored: bool = True
    """False when the scores only say who won (Iron & Brass: 1 and 0): the places are then listed
    without numbers, and `reason` alone says why."""

    def place_line(self, place: int, seat: Seat, name: str) -> str:
        """'1. Alice — 41' (or '1. Alice' for a game without a score), for result listings."""
        return f"{place}. {name} — {self.scores.get(seat, 0)}" if self.scored else f"{place}. {name}"

    @property
    def winners(self) -> list[Seat]:
        if self.no_winner:
            return []
        return self.ranking[0] if self.ranking else []


class CatalogueEntry(Model):
    """One card, building, town, unit... as `/card` shows it, from the game's data files."""

    name: str
    kind: str
    """What it is, e.g. 'Building (deck A)', 'Town', 'Unit'."""
    summary: str
    """One line: the essentials (cost, what it gives)."""
    details: list[tuple[str, str]] = Field(default_factory=list)
    """Label and value pairs: cost, requirements, effects, deck, counts."""
    designed: bool = False
    """True where the project designed the values (the rule text lacked them)."""


class View(Model):
    """What one seat (or, with seat None, a spectator) may know. Channel posts and images come from here."""

    game: str
    seat: Seat | None
    players: list[str]
    to_act: list[Seat]
    headline: str
    """One line saying where the game is, e.g. 'Round 3 - Bidding - Mary to bid'."""
    finished: bool = False
    topic: str = ""
    """The `/rules` topic of the current step (e.g. 'bidding'), so the turn message can link to it."""

    def alt_text(self) -> str:
        """A screen reader's description of the picture drawn from this view: where the game is and
        who must act. Games may override it to add scores; it must say nothing the view does not."""
        waiting = set(self.to_act)
        players = ", ".join(
            f"{name} (to act)" if seat in waiting else name for seat, name in enumerate(self.players)
        )
        whose = "This is the view of " + self.players[self.seat] + ". " if self.seat is not None else ""
        end = " The game is over." if self.finished else ""
        return f"{whose}{self.headline}. Players: {players}.{end}"


class Applied(Model):
    """The outcome of a legal action: the new state as JSON-able model, and what happened."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    state: Any
    events: list[Event]


StateT = TypeVar("StateT")
"""A game's state: a `Record` dataclass for every shipped game (`tests/rules/test_records.py`); the tests'
toy games keep a pydantic model, which pydantic validates and dumps alike."""


class Game(ABC, Generic[StateT]):
    """One game's rules. Subclasses set `info`, `state_model`, `action_type` and fill the hooks.

    The public methods are what the platform calls; they check what every game needs checked and
    never mutate the state they are given.
    """

    info: ClassVar[GameInfo]
    state_model: ClassVar[type[Any]]
    """A `Record` dataclass (or a `Model`): `dump_state` and `load_state` read it through a TypeAdapter."""
    view_model: ClassVar[type[View]] = View
    """The game's View class, so a view stored as JSON (a post waiting in the outbox) is drawn again
    exactly as the game made it."""
    action_type: ClassVar[Any]
    """A pydantic model or an annotated union of models; parsed with a TypeAdapter."""

    _adapter: TypeAdapter[Any] | None = None
    _state_adapter: TypeAdapter[Any] | None = None

    # ---- hooks for each game -------------------------------------------------------------
    @abstractmethod
    def _setup(self, players: list[str], options: dict[str, Any], rng: Rng) -> StateT: ...

    @abstractmethod
    def _to_act(self, state: StateT) -> set[Seat]: ...

    @abstractmethod
    def _legal_actions(self, state: StateT, seat: Seat) -> list[Choice]: ...

    @abstractmethod
    def _apply(self, state: StateT, seat: Seat, action: Any) -> list[Event]:
        """Mutate `state` (already a private copy) or raise RuleError before mutating anything that matters."""

    @abstractmethod
    def _view(self, state: StateT, seat: Seat | None) -> View: ...

    @abstractmethod
    def _result(self, state: StateT) -> Result | None: ...

    # ---- the platform's API -------------------------------------------------------------
    def setup(self, players: Sequence[str], options: Mapping[str, Any] | None, seed: int) -> StateT:
        count = len(players)
        if not self.info.min_players <= count <= self.info.max_players:
            raise RuleError(
                f"{self.info.name} needs {self.info.min_players} to {self.info.max_players} players "
                f"(there are {count}).",
                Rejection.BAD_OPTIONS,
            )
        resolved = self.resolve_options(options or {})
        return self._setup(list(players), resolved, Rng(seed=seed))

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults filled in and every value checked, with a sentence naming the bad option."""
        specs = {spec.name: spec for spec in self.info.options}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise RuleError(
                f"Unknown option {unknown[0]!r} for {self.info.name} (options: {known}).",
                Rejection.BAD_OPTIONS,
            )
        resolved: dict[str, Any] = {}
        for name, spec in specs.items():
            resolved[name] = _check_option(spec, options.get(name, spec.default))
        return resolved

    def stored_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """`resolve_options` for the options of a game already created (the lobby's stored options, a
        saved file's): the lobby stores every option resolved, so one they lack did not exist when the
        game was created, and takes its `before` value rather than today's default. Whatever starts,
        replays or imports a created game reads its options through this; a new game's come from
        `resolve_options`."""
        missing = {
            spec.name: spec.before
            for spec in self.info.options
            if spec.before is not None and spec.name not in options
        }
        return self.resolve_options({**options, **missing})

    def to_act(self, state: StateT) -> set[Seat]:
        if self._result(state) is not None:
            return set()
        return self._to_act(state)

    def legal_actions(self, state: StateT, seat: Seat) -> list[Choice]:
        if seat not in self.to_act(state):
            return []
        return self._legal_actions(state, seat)

    def parse_action(self, raw: Any) -> Any:
        adapter = self._adapter_of("_adapter", self.action_type)
        try:
            if isinstance(raw, str | bytes):
                return adapter.validate_json(raw)
            return adapter.validate_python(raw)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first.get("loc", ())) or "action"
            detail = f"{where}: {first.get('msg', 'invalid')}"
            if len(detail) > 200:  # pydantic may echo the input; a sentence must stay short
                detail = detail[:199] + "…"
            raise MalformedAction(f"That move could not be read ({detail}).") from None

    def apply(self, state: StateT, seat: Seat, action: Any) -> Applied:
        if self._result(state) is not None:
            raise RuleError("This game is over.", Rejection.GAME_OVER)
        if seat not in self._to_act(state):
            raise RuleError("It is not your turn.", Rejection.NOT_YOUR_TURN)
        parsed = action if isinstance(action, BaseModel) else self.parse_action(action)
        working = copied(state)
        events = self._apply(working, seat, parsed)
        return Applied(state=working, events=events)

    # ---- logs written by earlier versions of the rules --------------------------------------------
    def implied(self, state: StateT, seat: Seat | None, action: Any) -> list[tuple[Seat, Any]]:
        """Moves an earlier version of these rules made by itself where this version asks a seat, due
        before the logged `action` of `seat` (`seat` None: the log ends at `state`). A log written then
        has no entry for them, so a replay makes them first (`apply_logged`). Only a logged move the
        rules could never have accepted at `state` may imply them: a live move never does. Empty unless
        a game changed a rule that way (Iron & Brass, issue 41)."""
        return []

    def apply_logged(self, state: StateT, seat: Seat, action: Any) -> Applied:
        """`apply` for a move read back from a game's log (undo, replays, `/game export` files, the
        migration's audit): the `implied` moves first, their events before the move's own."""
        events: list[Event] = []
        for implied_seat, implied_action in self.implied(state, seat, action):
            applied = self.apply(state, implied_seat, implied_action)
            state, events = applied.state, [*events, *applied.events]
        applied = self.apply(state, seat, action)
        return Applied(state=applied.state, events=[*events, *applied.events]) if events else applied

    def earlier_dumps(self, state: StateT) -> list[str]:
        """`state` as earlier versions of these rules serialised it, where its shape changed since (a
        saved file holds the hash of the text its version wrote); empty for a position they could not
        reach. Empty by default."""
        return []

    def log_end(self, state: StateT) -> Applied | None:
        """`state` with the moves `implied` where a log ends made, and their events; None when there are
        none. A log written by an earlier version ends there; one written today may stop at the question
        (`saved_forms` offers both)."""
        implied = self.implied(state, None, None)
        if not implied:
            return None
        events: list[Event] = []
        for implied_seat, implied_action in implied:
            applied = self.apply(state, implied_seat, implied_action)
            state, events = applied.state, [*events, *applied.events]
        return Applied(state=state, events=events)

    def saved_forms(self, state: StateT) -> list[tuple[StateT, str]]:
        """Each (position, text) a saved copy of the position a log replays to may hold (a snapshot, a
        saved file's hash): today's dump of `state`, then its `earlier_dumps`; the same for its `log_end`
        when it has one."""
        ended = self.log_end(state)
        finals = [state] if ended is None else [state, ended.state]
        return [
            (final, text) for final in finals for text in (self.dump_state(final), *self.earlier_dumps(final))
        ]

    def view(self, state: StateT, seat: Seat | None) -> View:
        return self._view(state, seat)

    def opening_events(self, state: StateT) -> list[Event]:
        """What `setup` rolled or decided that the players must be told (who goes first, round 1's dice):
        `setup` returns only a state, so the bot announces these in the game's first post. `state` is the
        one `setup` returned. Games whose setup rolls or decides something override this; the default is
        nothing to tell."""
        return []

    def result(self, state: StateT) -> Result | None:
        return self._result(state)

    def timeout_choice(self, state: StateT, seat: Seat, policy: str) -> Choice | None:
        """The move the clock plays for a seat out of time: the choice the game declared 'pass' (the
        rules' way to skip the decision), and under the 'default' policy, where there is none, the one
        it declared 'safe'. None means the table keeps waiting. Only the declarations count: no label
        or key is read (issue 39), so a game that declares nothing never has a move played for it."""
        choices = self.legal_actions(state, seat)
        for wanted in ("pass", "safe") if policy == "default" else ("pass",):
            for choice in choices:
                if choice.timeout == wanted:
                    return choice
        return None

    def trade_form(self, state: StateT, seat: Seat) -> TradeForm | None:
        """What `seat` may offer and ask for in a trade proposal right now; None when it cannot propose.
        Games whose rules allow free-form trades override this and `trade_action`."""
        return None

    def trade_action(
        self, state: StateT, seat: Seat, partner: Seat, give: dict[str, int], get: dict[str, int]
    ) -> dict[str, Any]:
        """The game's proposal action for a bundle composed from `trade_form` keys; `apply` judges it."""
        raise RuleError("This game has no trades.")

    def turn_key(self, state: StateT) -> Hashable | None:
        """Which player turn a state is in, for undo ('back to the start of the acting player's turn'):
        the states of one turn share a key and the next turn has another. None (the default) says the
        game has no multi-move turns, so an undo takes back one move."""
        return None

    def catalogue(self) -> list[CatalogueEntry]:
        """Every card, building, unit... of the game's data, for `/card`. Games with data override this."""
        return []

    def dump_state(self, state: StateT) -> str:
        return self._adapter_of("_state_adapter", self.state_model).dump_json(state).decode()

    def load_state(self, raw: str | bytes) -> StateT:
        return self._adapter_of("_state_adapter", self.state_model).validate_json(raw)

    def copy_state(self, state: StateT) -> StateT:
        """A deep copy, as `apply` makes before it changes anything (tests and the search use it)."""
        return copied(state)

    @classmethod
    def _adapter_of(cls, slot: str, target: Any) -> TypeAdapter[Any]:
        """The TypeAdapter for `target` (the actions, the state) kept in `slot` of this very class, built
        on first use: a game subclassing another with other types gets its own, never its parent's."""
        adapter = cls.__dict__.get(slot)
        if adapter is None:
            adapter = TypeAdapter(target)
            setattr(cls, slot, adapter)
        return adapter

    def load_view(self, data: Mapping[str, Any]) -> View:
        return self.view_model.model_validate(data)


def _check_option(spec: OptionSpec, value: Any) -> Any:
    label = spec.label
    if spec.kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in {"on", "yes", "true", "1", "off", "no", "false", "0"}:
            return value.lower() in {"on", "yes", "true", "1"}
        raise RuleError(f"{label} is on or off, not {value!r}.", Rejection.BAD_OPTIONS)
    if spec.kind == "int":
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise RuleError(
                f"{label} must be a whole number, not {value!r}.", Rejection.BAD_OPTIONS
            ) from None
        if (spec.min is not None and number < spec.min) or (spec.max is not None and number > spec.max):
            raise RuleError(f"{label} must be between {spec.min} and {spec.max}.", Rejection.BAD_OPTIONS)
        return number
    text = str(value)
    if text not in spec.choices:
        raise RuleError(f"{label} must be one of: {', '.join(spec.choices)}.", Rejection.BAD_OPTIONS)
    return text

"""City Heroes: the quick-start guide of `../shared/rules/city-heroes.txt` on the platform's contract.

A turn is Expansion, Construction, Interaction, then an automatic Cleanup. In each active phase the
players act one at a time, clockwise from the first to pass in the previous phase, until all have
passed. A phase action may take several steps (build several buildings, plant several times, move
weapons around): the player stays on turn with `acted` set until they end the action. Round actions
(bank, rival city, influence) are offered beside the phase actions, before or during one, never
instead of one: after a round action a player may not pass while a phase action is still possible.
A trade proposal adds the partner to the seats to act (accept or decline; the proposer may cancel).
Rule decisions and designed values: `data/city_heroes/README.md`.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any, ClassVar

from rules import words
from rules.city_heroes import board
from rules.city_heroes.catalogue import entries as catalogue_entries
from rules.city_heroes.data import GOODS, NATURALS, RESOURCES, Catalogue, catalogue
from rules.city_heroes.state import (
    PHASES,
    Accept,
    Action,
    ActionKind,
    BankTrade,
    BuildAction,
    Cancel,
    Casualty,
    CityHeroesState,
    CityHeroesView,
    Craft,
    Decline,
    EndAction,
    Found,
    Garrison,
    InfluenceTrade,
    Loot,
    Pass,
    Pillage,
    Plant,
    PlayerState,
    Produce,
    Proposal,
    ProposalView,
    Propose,
    Raid,
    RaidView,
    RateView,
    RivalTrade,
    ScoreLine,
    SeatView,
    Stage,
    Tile,
    TileView,
    Token,
    Upgrade,
)
from rules.city_heroes.state import Buy as BuyTile
from rules.core import (
    CatalogueEntry,
    Choice,
    Event,
    Game,
    GameInfo,
    OptionSpec,
    Result,
    Rng,
    RuleError,
    Seat,
    TradeForm,
    TradeGood,
    TradePartner,
)

State = CityHeroesState
MARKET_FAMILY = ("market", "festival-grounds")
"""Buildings whose Market bonus pays at the Cleanup (the Grand Bazaar does NOT)."""
FESTIVAL_GOODS = {
    "studio": "jewellery",
    "carpenter": "scaffolds",
    "stonemason": "sculptures",
    "foundry": "tools",
    "forge": "weapons",
}
"""Festival Grounds: 'Studio -> Jewellery, Carpenter -> Scaffolds, Stonemason -> Sculpture, Foundry ->
Tools, Forge -> Weapons.'"""
SCHOLARLY = ("school", "college", "university")
TRADE_KEYS = (*RESOURCES, "ducats")
TRADE_PRICE = 2
"""Ducats of the ready-made 'ask for one' trade offers (any trade can be proposed)."""


def _choice(key: str, label: str, action: dict[str, Any], group: str, style: str = "secondary") -> Choice:
    """A Choice without re-validation (hundreds are built per call; the tests validate them)."""
    choice = _CHOICE_NEW(Choice)
    if len(label) > 100:  # what Choice's own validator does: long names must not break a label
        label = label[:99] + "…"
    _SET(choice, "__dict__", {"key": key, "label": label, "action": action, "group": group, "style": style})
    _SET(choice, "__pydantic_fields_set__", _CHOICE_FIELDS)
    _SET(choice, "__pydantic_extra__", None)
    _SET(choice, "__pydantic_private__", None)
    return choice


_CHOICE_NEW = Choice.__new__
_SET = object.__setattr__
_CHOICE_FIELDS = {"key", "label", "action", "group", "style"}


def _goods_text(items: dict[str, int]) -> str:
    parts = [f"{words.count(count, name)}" for name, count in items.items() if count]
    return ", ".join(parts) or "nothing"


def _terms(proposal: Proposal, seat: Seat, *, done: bool = False) -> str:
    """A proposal's contents in words, as `seat` (one of its two parties) sees its own side first; both
    parties saw the whole offer when it was made."""
    give, get = (proposal.give, proposal.get) if seat == proposal.proposer else (proposal.get, proposal.give)
    verbs = ("gave", "got") if done else ("give", "get")
    return f"you {verbs[0]} {_goods_text(give)}; you {verbs[1]} {_goods_text(get)}"


def _clean(items: dict[str, int]) -> dict[str, int]:
    return {key: value for key, value in sorted(items.items()) if value}


@functools.cache
def _bank_prices(cat: Catalogue) -> dict[str, tuple[int, int]]:
    prices = cat.setup.bank_prices
    table = {}
    for resource in RESOURCES:
        kind = "jewellery" if resource == "jewellery" else "natural" if resource in NATURALS else "good"
        table[resource] = (prices[kind].buy, prices[kind].sell)
    return table


@functools.cache
def _bank_choices(cat: Catalogue) -> tuple[dict[str, tuple[Choice, int]], dict[str, tuple[Choice, int]]]:
    """The bank's buy and sell choices never change: built once (with the price that gates each)."""
    buys, sells = {}, {}
    for resource, (pays, asks) in _bank_prices(cat).items():
        buys[resource] = (
            _choice(
                key=f"bank-buy:{resource}",
                label=f"Buy {words.count(1, resource)} from the bank for {words.count(asks, 'ducat')}",
                action={"kind": "bank", "resource": resource, "count": 1, "sell": False},
                group="Bank (round action)",
            ),
            asks,
        )
        sells[resource] = (
            _choice(
                key=f"bank-sell:{resource}",
                label=f"Sell {words.count(1, resource)} to the bank for {words.count(pays, 'ducat')}",
                action={"kind": "bank", "resource": resource, "count": 1, "sell": True},
                group="Bank (round action)",
            ),
            pays,
        )
    return buys, sells


class CityHeroes(Game[CityHeroesState]):
    info: ClassVar[GameInfo] = GameInfo(
        id="city-heroes",
        name="City Heroes",
        min_players=1,
        max_players=5,
        summary=(
            "Build an Italian city together and compete for influence: buy tiles, plant, build and upgrade, "
            "raise public works, trade and pillage. If the city ends below its rival's prestige, all lose."
        ),
        hidden_information=True,
        randomness=True,
        simultaneous=False,
        options=(
            OptionSpec(
                name="map_seed",
                label="Map seed",
                kind="int",
                default=0,
                min=0,
                max=999_999_999,
                description="The same seed gives the same map (0: a map from the game's own seed).",
            ),
            OptionSpec(
                name="turns",
                label="Turns",
                kind="int",
                default=0,
                min=0,
                max=20,
                description="0: the guide's length (12 solo, 10 for 2-3 players, 9 for 4, 8 for 5).",
            ),
        ),
    )
    state_model = CityHeroesState
    view_model = CityHeroesView
    action_type = Action

    @property
    def cat(self) -> Catalogue:
        return catalogue()

    def catalogue(self) -> list[CatalogueEntry]:
        """Every building, public work, rival exchange row and recipe, for `/card`."""
        return list(catalogue_entries())

    # ---- setup ----------------------------------------------------------------------------------
    def _setup(self, players: list[str], options: dict[str, Any], rng: Rng) -> State:
        setup = self.cat.setup
        map_rng = Rng(seed=options["map_seed"]) if options["map_seed"] else rng
        tiles = board.generate(setup.map, map_rng)
        start = setup.start
        stock = {name: start.get(name, 0) for name in RESOURCES}  # type: ignore[call-overload]
        state = State(
            players=[
                PlayerState(
                    name=name,
                    stock=dict(stock),
                    ducats=start["ducats"],
                    ready=start["workers"],
                    workers=start["workers"],
                )
                for name in players
            ],
            rng=rng,
            tiles=tiles,
            radius=setup.map.radius,
            turns=options["turns"] or setup.turns[str(len(players))],  # type: ignore[index]
            bank={name: setup.bank["each"] for name in RESOURCES},
            bank_ducats=setup.bank["ducats"],
            rival_prestige=self.cat.rival.rival.start,
            outside={name: 0 for name in RESOURCES},
        )
        return state

    # ---- small helpers --------------------------------------------------------------------------
    def tile(self, state: State, tile_id: int) -> Tile:
        if not 1 <= tile_id <= len(state.tiles):
            raise RuleError(f"There is no tile T{tile_id}.")
        return state.tiles[tile_id - 1]

    def adjacent(self, state: State, tile_id: int) -> tuple[int, ...]:
        return board.neighbours(state.radius)[tile_id]

    def owned(self, state: State, seat: Seat) -> list[Tile]:
        return [tile for tile in state.tiles if tile.owner == seat]

    def counts(self, state: State) -> dict[Seat | None, Counter[str]]:
        """Buildings per owner (House track and main slot), in one pass over the map (computed once per
        `legal_actions` call, which never mutates the state)."""
        memo = self._memo
        if memo is not None and memo[0] is state:
            return memo[1]
        table: dict[Seat | None, Counter[str]] = {}
        for tile in state.tiles:
            if tile.owner is None:
                continue
            counter = table.setdefault(tile.owner, Counter())
            if tile.house:
                counter[tile.house] += 1
            if tile.building:
                counter[tile.building] += 1
        return table

    def has(self, state: State, seat: Seat, building: str, counts: dict | None = None) -> int:
        """How many of `building` the seat owns (House track or main slot)."""
        table = counts if counts is not None else self.counts(state)
        mine = table.get(seat)
        return mine[building] if mine else 0

    def work_done(self, state: State, tile: Tile) -> bool:
        return tile.work is not None and tile.stages >= self.cat.works[tile.work].stages

    def _name(self, key: str) -> str:
        if key in self.cat.buildings:
            return self.cat.buildings[key].name
        if key in self.cat.works:
            return self.cat.works[key].name
        return key

    def price(self, state: State, seat: Seat, tile_id: int) -> int:
        """'1 Ducat + 1 Ducat for each tile between the selected tile and the closest tile you own ...
        Purchasing a Hill costs an extra 1 Ducat'; the first tile is free."""
        mine = [tile.id for tile in self.owned(state, seat)]
        if not mine:
            return 0
        nearest = min(board.distance(state.radius, tile_id, other) for other in mine)
        return 1 + (nearest - 1) + (1 if state.tiles[tile_id - 1].terrain == "hill" else 0)

    def guild_bonus(self, counts: dict[Seat | None, Counter[str]], seat: Seat, guild: str) -> int:
        """'by either 2 more if the player built a ... Guild or by 1 more if another player has built one'."""
        if counts.get(seat, Counter())[guild]:
            return 2
        return 1 if any(counter[guild] for counter in counts.values()) else 0

    def discounts(self, state: State, seat: Seat) -> dict[str, int]:
        """Workshop, Carpenter and Stonemason discounts (a guild counts as its Carpenter/Stonemason);
        several copies of one building do not add up."""
        counts = self.counts(state)
        mine = counts.get(seat, Counter())
        workshop = 1 if mine["workshop"] else 0
        discount = {"stone": workshop, "planks": workshop, "sculptures": 0, "scaffolds": 0}
        if mine["carpenter"] or mine["carpenters-guild"]:
            bonus = self.guild_bonus(counts, seat, "carpenters-guild")
            discount["planks"] += 2 + bonus
            discount["scaffolds"] += 1 + bonus
        if mine["stonemason"] or mine["masons-guild"]:
            bonus = self.guild_bonus(counts, seat, "masons-guild")
            discount["stone"] += 2 + bonus
            discount["sculptures"] += 1 + bonus
        return discount

    def cost(
        self,
        state: State,
        seat: Seat,
        base: dict[str, int],
        target: str | None = None,
        discount: dict[str, int] | None = None,
    ) -> dict[str, int]:
        """A building's or public work stage's cost after the Workshop, Carpenter and Stonemason
        discounts (and the Biblioteka's 3 ducats off colleges and universities)."""
        cost = dict(base)
        for key, off in (discount if discount is not None else self.discounts(state, seat)).items():
            if key in cost:
                cost[key] = max(0, cost[key] - off)
        if target in ("college", "university") and any(
            tile.work == "biblioteka-marciana" and self.work_done(state, tile) for tile in state.tiles
        ):
            cost["ducats"] = max(0, cost.get("ducats", 0) - 3)
        return {key: value for key, value in cost.items() if value}

    def shortfall(self, player: PlayerState, cost: dict[str, int]) -> str | None:
        for key, need in cost.items():
            have = (
                player.ducats if key == "ducats" else player.ready if key == "workers" else player.stock[key]
            )
            if have < need:
                what = "ready workers" if key == "workers" else key
                return f"you need {words.count(need, what)} and have {have}"
        return None

    def pay(self, state: State, seat: Seat, cost: dict[str, int]) -> None:
        player = state.players[seat]
        for key, need in cost.items():
            if key == "ducats":
                player.ducats -= need
                state.bank_ducats += need
            elif key == "workers":
                player.ready -= need
                player.busy += need
            else:
                player.stock[key] -= need
                state.bank[key] += need

    def cost_text(self, cost: dict[str, int]) -> str:
        return ", ".join(f"{words.count(count, key)}" for key, count in cost.items()) or "nothing"

    def _give(self, state: State, seat: Seat, resource: str, count: int) -> int:
        """Move up to `count` of `resource` from the bank to the seat; returns what was given."""
        given = max(0, min(count, state.bank[resource]))
        state.bank[resource] -= given
        state.players[seat].stock[resource] += given
        return given

    def _pay_ducats(self, state: State, seat: Seat, count: int) -> int:
        given = max(0, min(count, state.bank_ducats))
        state.bank_ducats -= given
        state.players[seat].ducats += given
        return given

    # ---- whose turn -------------------------------------------------------------------------------
    def _to_act(self, state: State) -> set[Seat]:
        if state.phase == "over":
            return set()
        if state.proposal is not None:
            return {state.proposal.proposer, state.proposal.partner}
        return {state.current}

    def trade_form(self, state: State, seat: Seat) -> TradeForm | None:
        """'During Phase 3, players can trade with each other' (resources, goods and ducats; 'the trade
        can't be empty'). Every stock is public, so the composer shows how much each side holds."""
        if (
            state.phase != "interaction"
            or state.proposal is not None
            or state.raid is not None
            or state.acted is not None
            or seat not in self._to_act(state)
            or len(state.players) < 2
        ):
            return None

        def goods(player: PlayerState) -> list[TradeGood]:
            listed = [TradeGood(key="ducats", label="ducats", most=player.ducats)]
            return listed + [TradeGood(key=r, label=r, most=player.stock[r]) for r in RESOURCES]

        return TradeForm(
            gives=goods(state.players[seat]),
            partners=[
                TradePartner(seat=other, name=player.name, asks=goods(player))
                for other, player in enumerate(state.players)
                if other != seat
            ],
            note="The partner accepts or declines; either of you may cancel before that.",
        )

    def trade_action(
        self, state: State, seat: Seat, partner: Seat, give: dict[str, int], get: dict[str, int]
    ) -> dict[str, Any]:
        return {"kind": "propose", "partner": partner, "give": give, "get": get}

    def turn_key(self, state: State) -> int:
        """'The Undo button moves to the start of a players' turn': a turn runs from one player getting
        the move to the next; a trade answer or a pillage's loot inside it belong to the same turn."""
        return state.turns_begun

    def _next_turn(self, state: State, events: list[Event]) -> None:
        state.turns_begun += 1
        state.acted = None
        state.round_used = False
        count = len(state.players)
        for step in range(1, count + 1):
            seat = (state.current + step) % count
            if not state.players[seat].passed:
                state.current = seat
                return
        self._end_phase(state, events)

    def _end_phase(self, state: State, events: list[Event]) -> None:
        starter = state.first_passer if state.first_passer is not None else 0
        for player in state.players:
            player.passed = False
            player.exchanged = {}
        state.first_passer = None
        state.current = starter
        state.acted = None
        state.round_used = False
        if state.phase == "interaction":
            self._cleanup(state, events)
            if state.turn >= state.turns:
                state.phase = "over"
                result = self._result(state)
                assert result is not None
                events.append(
                    Event(
                        text=f"Game over after {words.count(state.turns, 'turn')}. {result.reason}",
                        urgent=True,
                    )
                )
                return
            state.turn += 1
            state.phase = "expansion"
        else:
            state.phase = PHASES[PHASES.index(state.phase) + 1]  # type: ignore[assignment]
        events.append(
            Event(
                text=f"Turn {state.turn}: {state.phase.title()} phase, "
                f"{state.players[starter].name} goes first."
            )
        )

    # ---- the choices ------------------------------------------------------------------------------
    _memo: tuple[State, dict[Seat | None, Counter[str]]] | None = None

    def _legal_actions(self, state: State, seat: Seat) -> list[Choice]:
        self._memo = (state, self.counts(state))
        try:
            return self._choices(state, seat)
        finally:
            self._memo = None

    def _choices(self, state: State, seat: Seat) -> list[Choice]:
        if state.proposal is not None:
            if seat == state.proposal.partner:
                choices = []
                if self._trade_problem(state, state.proposal) is None:
                    choices.append(
                        _choice(
                            key="accept",
                            label="Accept the trade",
                            action={"kind": "accept"},
                            group="Trade",
                            style="success",
                        )
                    )
                choices.append(
                    _choice(
                        key="decline",
                        label="Decline the trade",
                        action={"kind": "decline"},
                        group="Trade",
                        style="danger",
                    )
                )
                return choices
            return [
                _choice(
                    key="cancel", label="Cancel your trade offer", action={"kind": "cancel"}, group="Trade"
                )
            ]
        if state.raid is not None:
            return self._raid_choices(state)
        phase = self._phase_choices(state, seat)
        choices = list(phase)
        if state.acted is not None:
            choices.append(
                _choice(
                    key="end", label="End this action", action={"kind": "end"}, group="Turn", style="primary"
                )
            )
            choices.append(
                _choice(
                    key="end-pass",
                    label="End this action and pass for the phase",
                    action={"kind": "end", "and_pass": True},
                    group="Turn",
                )
            )
        elif self._may_pass(state, seat, bool(phase)):
            choices.append(
                _choice(
                    key="pass",
                    label=f"Pass (end your {state.phase} phase)",
                    action={"kind": "pass"},
                    group="Turn",
                    style="primary" if not phase else "secondary",
                )
            )
        if choices:
            choices += self._round_choices(state, seat)
            choices += self._free_choices(state, seat)
        return choices

    def _may_pass(self, state: State, seat: Seat, can_act: bool) -> bool:
        if state.phase == "expansion" and not self.owned(state, seat):
            return not can_act  # 'If a player has no tiles, they must select a tile.'
        # Round actions 'must be done alongside another action (you may not make only a Round
        # Action and pass the phase)': once one is taken, pass only when no phase action is left.
        return not (state.round_used and can_act)

    def _phase_choices(self, state: State, seat: Seat) -> list[Choice]:
        kind = state.acted
        if state.phase == "expansion":
            return [] if kind is not None else self._buy_choices(state, seat)
        if state.phase == "construction":
            makers = {
                "garrison": self._garrison_choices,
                "plant": self._plant_choices,
                "build": self._build_choices,
                "upgrade": self._upgrade_choices,
                "works": self._works_choices,
                "craft": self._craft_choices,
            }
            if kind is not None:
                return makers[kind](state, seat) if kind in makers else []
            return [choice for maker in makers.values() for choice in maker(state, seat)]
        if state.phase == "interaction" and kind is None:
            return self._pillage_choices(state, seat) + self._trade_choices(state, seat)
        return []

    def _buy_choices(self, state: State, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        if player.ready < 1 or len(self.owned(state, seat)) + 1 > player.workers:
            return []
        choices = []
        for tile in state.tiles:
            if tile.owner is not None:
                continue
            price = self.price(state, seat, tile.id)
            if price > player.ducats:
                continue
            what = f"{tile.terrain}{', ' + tile.resource if tile.resource else ''}"
            choices.append(
                _choice(
                    key=f"buy:{tile.id}",
                    label=f"Buy T{tile.id} ({what}) for {words.count(price, 'ducat')}",
                    action={"kind": "buy", "tile": tile.id},
                    group="Buy a tile",
                    style="success",
                )
            )
        return choices

    def _layout(self, state: State, seat: Seat) -> dict[int, int]:
        return {tile.id: tile.garrison for tile in self.owned(state, seat) if tile.garrison}

    def _garrison_choices(self, state: State, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        if state.acted is None and player.ready < 1:
            return []
        supply = player.stock["weapons"]
        layout = self._layout(state, seat)
        choices = []

        def add(key: str, label: str, new: dict[int, int]) -> None:
            choices.append(
                _choice(
                    key=key,
                    label=label,
                    action={"kind": "garrison", "layout": {str(t): n for t, n in sorted(new.items()) if n}},
                    group="Garrison",
                )
            )

        for tile in self.owned(state, seat):
            if supply >= 1:
                add(
                    f"garrison:{tile.id}:1",
                    f"Garrison 1 weapon on T{tile.id}",
                    layout | {tile.id: tile.garrison + 1},
                )
            if supply > 1:
                add(
                    f"garrison:{tile.id}:all",
                    f"Garrison all {supply} supply weapons on T{tile.id}",
                    layout | {tile.id: tile.garrison + supply},
                )
            if tile.garrison:
                add(
                    f"garrison:{tile.id}:off",
                    f"Take the {words.count(tile.garrison, 'weapon')} off T{tile.id}",
                    layout | {tile.id: 0},
                )
        return choices

    def _plant_targets(self, state: State, seat: Seat) -> list[tuple[Tile, str]]:
        out = []
        mine = {tile.id for tile in self.owned(state, seat)}
        for tile in state.tiles:
            if tile.owner != seat and not (tile.owner is None and mine & set(self.adjacent(state, tile.id))):
                continue
            for resource in ("wheat", "timber"):
                if self._plant_problem(state, seat, tile, resource) is None:
                    out.append((tile, resource))
        return out

    def _plant_problem(self, state: State, seat: Seat, tile: Tile, resource: str) -> str | None:
        player = state.players[seat]
        if tile.owner is not None and tile.owner != seat:
            return f"T{tile.id} belongs to {state.players[tile.owner].name}."
        if tile.owner is None and not any(
            state.tiles[other - 1].owner == seat for other in self.adjacent(state, tile.id)
        ):
            return (
                f"You may plant only on your tiles or on neutral tiles next to yours (T{tile.id} is neither)."
            )
        if resource == "wheat" and tile.terrain != "plain":
            return "Wheat grows only on Plains."
        if tile.resource == resource:
            return f"T{tile.id} already has {resource}."
        if tile.resource is not None and tile.owner != seat:
            return f"You may plant over {tile.resource} only on your own tile."
        if not any(state.tiles[other - 1].resource == resource for other in self.adjacent(state, tile.id)):
            return f"Planting {resource} needs {resource} on an adjacent tile."
        if player.stock[resource] < 1 or player.ready < 1:
            return f"Planting costs 1 worker and {words.count(1, resource)}."
        return None

    def _plant_choices(self, state: State, seat: Seat) -> list[Choice]:
        return [
            _choice(
                key=f"plant:{tile.id}:{resource}",
                label=f"Plant {resource} on T{tile.id}"
                + (f" (over {tile.resource})" if tile.resource else "")
                + " - 1 worker, 1 "
                + resource,
                action={"kind": "plant", "tile": tile.id, "resource": resource},
                group="Plant",
            )
            for tile, resource in self._plant_targets(state, seat)
        ]

    def _build_problem(
        self, state: State, seat: Seat, tile: Tile, building: str, discount: dict[str, int] | None = None
    ) -> str | None:
        spec = self.cat.buildings.get(building)
        if spec is None or spec.level != 1 or spec.track != "main":
            return f"{self._name(building)} is not a level 1 building you can build (upgrade to it instead)."
        if tile.owner != seat:
            return f"You may only build on your own tiles (T{tile.id} is not yours)."
        if tile.building is not None:
            return f"T{tile.id} already has {words.a(self._name(tile.building))}."
        if tile.work is not None:
            return f"T{tile.id} holds the {self._name(tile.work)} public work."
        if spec.placement is not None and tile.resource not in spec.placement:
            return f"{words.a(spec.name, start=True)} goes only on a tile with {' or '.join(spec.placement)}."
        short = self.shortfall(state.players[seat], self.cost(state, seat, spec.cost, building, discount))
        if short:
            return f"You cannot afford {words.a(spec.name)}: {short}."
        return None

    def _build_choices(self, state: State, seat: Seat) -> list[Choice]:
        choices = []
        discount = self.discounts(state, seat)
        for tile in self.owned(state, seat):
            if tile.building is not None or tile.work is not None:
                continue
            for spec in self.cat.buildings.values():
                if (
                    spec.level == 1
                    and spec.track == "main"
                    and self._build_problem(state, seat, tile, spec.id, discount) is None
                ):
                    cost = self.cost(state, seat, spec.cost, spec.id, discount)
                    choices.append(
                        _choice(
                            key=f"build:{tile.id}:{spec.id}",
                            label=f"Build {words.a(spec.name)} on T{tile.id} ({self.cost_text(cost)})"[:100],
                            action={"kind": "build", "tile": tile.id, "building": spec.id},
                            group="Build",
                            style="success",
                        )
                    )
        return choices

    def _upgrade_problem(
        self, state: State, seat: Seat, tile: Tile, target: str, discount: dict[str, int] | None = None
    ) -> str | None:
        spec = self.cat.buildings.get(target)
        if spec is None or spec.level == 1:
            return f"{self._name(target)} is not an upgrade."
        if tile.owner != seat:
            return f"T{tile.id} is not yours."
        current = tile.house if spec.track == "house" else tile.building
        if current is None or current not in self.cat.upgrades_from[target]:
            sources = words.listed((self._name(source) for source in self.cat.upgrades_from[target]), "or")
            return f"{words.a(spec.name, start=True)} upgrades {words.a(sources)}, which T{tile.id} does not have."
        if spec.is_unique and target in state.unique_built:
            return f"There is already {words.a(spec.name)} in the game (level 3 buildings are unique)."
        short = self.shortfall(state.players[seat], self.cost(state, seat, spec.cost, target, discount))
        if short:
            return f"You cannot afford {words.a(spec.name)}: {short}."
        return None

    def _upgrade_choices(self, state: State, seat: Seat) -> list[Choice]:
        choices = []
        discount = self.discounts(state, seat)
        for tile in self.owned(state, seat):
            for current in (tile.house, tile.building):
                for target in self.cat.upgrades_to.get(current or "", []):
                    if self._upgrade_problem(state, seat, tile, target, discount) is None:
                        spec = self.cat.buildings[target]
                        cost = self.cost(state, seat, spec.cost, target, discount)
                        choices.append(
                            _choice(
                                key=f"upgrade:{tile.id}:{target}",
                                label=f"Upgrade T{tile.id} {self._name(current or '')} to {spec.name} "
                                f"({self.cost_text(cost)})"[:100],
                                action={"kind": "upgrade", "tile": tile.id, "building": target},
                                group="Upgrade",
                                style="success",
                            )
                        )
        return choices

    def _found_problem(self, state: State, seat: Seat, tile: Tile, work: str) -> str | None:
        spec = self.cat.works.get(work)
        if spec is None:
            return f"There is no public work called {work!r}."
        if work in state.works_placed:
            return f"The {spec.name} has already been founded."
        if tile.work is not None:
            return f"T{tile.id} already holds the {self._name(tile.work)}."
        if tile.building is not None:
            return f"T{tile.id} has {words.a(self._name(tile.building))}: a tile holds a building or a public work."
        if tile.owner is None and not any(
            state.tiles[other - 1].owner is not None for other in self.adjacent(state, tile.id)
        ):
            return "A foundation goes on a city tile or on a tile next to one."
        if spec.placement == "hill" and tile.terrain != "hill":
            return f"The {spec.name} must be placed on a hill."
        short = self.shortfall(state.players[seat], self.cost(state, seat, spec.foundation))
        if short:
            return f"You cannot afford the {spec.name}'s foundation: {short}."
        return None

    def _stage_problem(self, state: State, seat: Seat, tile: Tile) -> str | None:
        if tile.work is None:
            return f"T{tile.id} holds no public work."
        spec = self.cat.works[tile.work]
        if tile.stages >= spec.stages:
            return f"The {spec.name} is already finished."
        short = self.shortfall(state.players[seat], self.cost(state, seat, spec.stage))
        if short:
            return f"You cannot afford a stage of the {spec.name}: {short}."
        return None

    def _works_choices(self, state: State, seat: Seat) -> list[Choice]:
        choices = []
        player = state.players[seat]
        discount = self.discounts(state, seat)
        for tile in state.tiles:
            if tile.work is None or tile.stages >= self.cat.works[tile.work].stages:
                continue
            spec = self.cat.works[tile.work]
            if self.shortfall(player, self.cost(state, seat, spec.stage, discount=discount)) is None:
                choices.append(
                    _choice(
                        key=f"stage:{tile.id}",
                        label=f"Build stage {tile.stages + 1}/{spec.stages} of the {spec.name} on T{tile.id}",
                        action={"kind": "stage", "tile": tile.id},
                        group="Public works",
                        style="success",
                    )
                )
        for spec in self.cat.works.values():
            if spec.id in state.works_placed:
                continue
            if self.shortfall(player, self.cost(state, seat, spec.foundation, discount=discount)):
                continue
            for tile in state.tiles:
                if self._found_problem(state, seat, tile, spec.id) is None:
                    choices.append(
                        _choice(
                            key=f"found:{tile.id}:{spec.id}",
                            label=f"Lay the {spec.name} foundation on T{tile.id}",
                            action={"kind": "found", "tile": tile.id, "work": spec.id},
                            group="Public works",
                        )
                    )
        return choices

    def _craft_count(self, state: State, seat: Seat, good: str) -> tuple[int, dict[str, int]] | str:
        """How many of `good` the seat can craft now and the input of one, or why not."""
        recipe = self.cat.recipes.get(good)
        if recipe is None:
            return f"{good} cannot be crafted."
        if recipe.needs and not any(self.has(state, seat, need) for need in recipe.needs):
            return f"Crafting {good} needs {words.a(words.listed((self._name(need) for need in recipe.needs), 'or'))}."
        needed: dict[str, int] = dict(recipe.input)
        if recipe.guild and recipe.guild_input and self.has(state, seat, recipe.guild):
            needed = dict(recipe.guild_input)
        player = state.players[seat]
        most = min(player.stock[key] // count for key, count in needed.items())
        most = min(most, state.bank[good])
        if most < 1:
            return f"Crafting {words.count(1, good)} takes {self.cost_text(needed)} (and the bank must have {good} left)."
        return most, needed

    def _craft_choices(self, state: State, seat: Seat) -> list[Choice]:
        if state.acted is None and state.players[seat].ready < 1:
            return []
        choices = []
        for good in self.cat.recipes:
            found = self._craft_count(state, seat, good)
            if isinstance(found, str):
                continue
            most, needed = found
            for count in sorted({1, most}):
                cost = {key: value * count for key, value in needed.items()}
                choices.append(
                    _choice(
                        key=f"craft:{good}:{count}",
                        label=f"Craft {words.count(count, good)} from {self.cost_text(cost)}",
                        action={"kind": "craft", "good": good, "count": count},
                        group="Craft",
                    )
                )
        return choices

    def attack_bonus(self, state: State, seat: Seat, target: int) -> int:
        return sum(
            self.cat.buildings[state.tiles[other - 1].building].attack  # type: ignore[index]
            for other in self.adjacent(state, target)
            if state.tiles[other - 1].owner == seat and state.tiles[other - 1].building
        )

    def defence(self, state: State, target: Tile) -> int:
        """Garrison on the tile + Barracks/Fort/Castle of the defender's tiles next to it and on it +
        Kronborg's +3 for every tile next to it (and its own)."""
        total = target.garrison
        for tile_id in (target.id, *self.adjacent(state, target.id)):
            tile = state.tiles[tile_id - 1]
            if tile.owner == target.owner and tile.building:
                total += self.cat.buildings[tile.building].defence
            if tile.work and self.work_done(state, tile):
                total += self.cat.works[tile.work].defence
        return total

    def _attackable(self, state: State, seat: Seat) -> list[tuple[Tile, dict[int, int]]]:
        out = []
        for tile in state.tiles:
            if tile.owner is None or tile.owner == seat or tile.pillaged:
                continue
            sources = {
                other: state.tiles[other - 1].garrison
                for other in self.adjacent(state, tile.id)
                if state.tiles[other - 1].owner == seat and state.tiles[other - 1].garrison
            }
            if sources:
                out.append((tile, sources))
        return out

    def _pillage_choices(self, state: State, seat: Seat) -> list[Choice]:
        if state.players[seat].ready < 1:
            return []
        choices = []
        for tile, sources in self._attackable(state, seat):
            bonus = self.attack_bonus(state, seat, tile.id)
            defence = self.defence(state, tile)
            total = sum(sources.values())
            if total + bonus <= defence:
                continue
            options = {"all": sources}
            need = max(1, defence + 1 - bonus)
            least: dict[int, int] = {}
            for other, count in sorted(sources.items(), key=lambda item: -item[1]):
                take = min(count, need - sum(least.values()))
                if take > 0:
                    least[other] = take
            if least != sources:
                options["least"] = least
            for name, commit in options.items():
                attack = sum(commit.values()) + bonus
                choices.append(
                    _choice(
                        key=f"pillage:{tile.id}:{name}",
                        label=f"Pillage {state.players[tile.owner].name}'s T{tile.id} with "  # type: ignore[index]
                        f"{words.count(sum(commit.values()), 'weapon')}: attack {attack} vs defence {defence}",
                        action={
                            "kind": "pillage",
                            "tile": tile.id,
                            "weapons": {str(k): v for k, v in commit.items()},
                        },
                        group="Pillage",
                        style="danger",
                    )
                )
        return choices

    def _trade_choices(self, state: State, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        choices = []
        for partner, other in enumerate(state.players):
            if partner == seat:
                continue
            for resource in RESOURCES:
                if player.stock[resource] >= 1:
                    choices.append(
                        _choice(
                            key=f"gift:{partner}:{resource}",
                            label=f"Offer {other.name} {words.count(1, resource)} as a gift",
                            action={"kind": "propose", "partner": partner, "give": {resource: 1}, "get": {}},
                            group="Trade",
                        )
                    )
                if other.stock[resource] >= 1 and player.ducats >= TRADE_PRICE:
                    choices.append(
                        _choice(
                            key=f"ask:{partner}:{resource}",
                            label=f"Offer {other.name} {words.count(TRADE_PRICE, 'ducat')} for {words.count(1, resource)}",
                            action={
                                "kind": "propose",
                                "partner": partner,
                                "give": {"ducats": TRADE_PRICE},
                                "get": {resource: 1},
                            },
                            group="Trade",
                        )
                    )
        return choices

    def _raid_choices(self, state: State) -> list[Choice]:
        raid = state.raid
        assert raid is not None
        defender = state.players[raid.defender]
        if raid.loot:
            return [
                _choice(
                    key=f"loot:{resource}",
                    label=f"Loot {words.count(1, resource)} from {defender.name} ({raid.loot} left to take)",
                    action={"kind": "loot", "resource": resource},
                    group="Loot",
                    style="success",
                )
                for resource in RESOURCES
                if defender.stock[resource] > 0
            ]
        return [
            _choice(
                key=f"casualty:{tile}",
                label=f"Lose 1 weapon from T{tile} ({words.count(raid.casualties, 'casualty')} left)",
                action={"kind": "casualty", "tile": tile},
                group="Casualties",
                style="danger",
            )
            for tile, count in sorted(raid.committed.items())
            if count > 0
        ]

    # ---- round actions and free choices -------------------------------------------------------------
    def bank_price(self, resource: str) -> tuple[int, int]:
        """(what the bank pays, what it asks)."""
        return _bank_prices(self.cat)[resource]

    def rate_position(self, state: State, seat: Seat, row: str, counts: dict | None = None) -> int:
        bazaars = self.has(state, seat, "grand-bazaar", counts)
        return min(4, state.players[seat].tokens.get(row, 0) + bazaars)

    def rival_limit(self, state: State, seat: Seat, counts: dict | None = None) -> int:
        """'1 + your Festival Grounds + 2 * your Grand Bazaar' lots per row and phase."""
        counts = counts if counts is not None else self.counts(state)
        return (
            1
            + self.has(state, seat, "festival-grounds", counts)
            + 2 * self.has(state, seat, "grand-bazaar", counts)
        )

    def rival_terms(
        self, state: State, seat: Seat, row: str, counts: dict | None = None
    ) -> tuple[int, int, int]:
        """(give, get, prestige) of one lot on `row` for `seat`."""
        counts = counts if counts is not None else self.counts(state)
        spec = self.cat.rows[row]
        give, get = spec.rates[self.rate_position(state, seat, row, counts)]
        rival = self.cat.rival
        if row.startswith("sell-"):
            prestige = rival.sales_prestige[self.rate_position(state, seat, "sales", counts)]
        else:
            prestige = rival.purchase_prestige[self.rate_position(state, seat, "purchase", counts)]
        return give, get, prestige

    def _rival_problem(
        self, state: State, seat: Seat, row: str, lots: int, counts: dict | None = None
    ) -> str | None:
        if row not in self.cat.rows:
            return f"The rival city has no {row!r} exchange."
        counts = counts if counts is not None else self.counts(state)
        player = state.players[seat]
        used = player.exchanged.get(row, 0)
        limit = self.rival_limit(state, seat, counts)
        if used + lots > limit:
            return (
                f"You may exchange at most {words.count(limit, 'lot')} of this row per phase ({used} done)."
            )
        give, get, _ = self.rival_terms(state, seat, row, counts)
        resource = self.cat.rows[row].resource
        if row.startswith("sell-"):
            if player.stock[resource] < give * lots:
                return f"Selling {words.count(lots, 'lot')} takes {words.count(give * lots, resource)}; you have {player.stock[resource]}."
        elif player.ducats < give * lots:
            return f"Buying {words.count(lots, 'lot')} costs {words.count(give * lots, 'ducat')}; you have {player.ducats}."
        return None

    def _bank_problem(self, state: State, seat: Seat, resource: str, count: int, sell: bool) -> str | None:
        if resource not in RESOURCES:
            return f"The bank does not trade {resource!r}."
        player = state.players[seat]
        pays, asks = self.bank_price(resource)
        if sell:
            if player.stock[resource] < count:
                return f"You have only {words.count(player.stock[resource], resource)}."
            if state.bank_ducats < pays * count:
                return f"The bank has only {words.count(state.bank_ducats, 'ducat')}."
        else:
            if state.bank[resource] < count:
                return f"The bank has only {words.count(state.bank[resource], resource)}."
            if player.ducats < asks * count:
                return f"{words.count(count, resource)} cost {words.count(asks * count, 'ducat')}; you have {player.ducats}."
        return None

    def _round_choices(self, state: State, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        counts = self.counts(state)
        choices = []
        buys, sells = _bank_choices(self.cat)
        for resource in RESOURCES:
            asks, pays = buys[resource][1], sells[resource][1]
            if state.bank[resource] >= 1 and player.ducats >= asks:
                choices.append(buys[resource][0])
            if player.stock[resource] >= 1 and state.bank_ducats >= pays:
                choices.append(sells[resource][0])
        bazaars = self.has(state, seat, "grand-bazaar", counts)
        limit = self.rival_limit(state, seat, counts)
        rival = self.cat.rival
        sales = rival.sales_prestige[min(4, player.tokens.get("sales", 0) + bazaars)]
        purchase = rival.purchase_prestige[min(4, player.tokens.get("purchase", 0) + bazaars)]
        for row, spec in self.cat.rows.items():
            if player.exchanged.get(row, 0) >= limit:
                continue
            give, get = spec.rates[min(4, player.tokens.get(row, 0) + bazaars)]
            if row.startswith("sell-"):
                if player.stock[spec.resource] < give:
                    continue
                prestige = sales
                label = (
                    f"Sell {words.count(give, spec.resource)} to the rival for {words.count(get, 'ducat')}"
                )
            else:
                if player.ducats < give:
                    continue
                prestige = purchase
                label = (
                    f"Buy {words.count(get, spec.resource)} from the rival for {words.count(give, 'ducat')}"
                )
            choices.append(
                _choice(
                    key=f"rival:{row}",
                    label=f"{label} (prestige {prestige:+d})",
                    action={"kind": "rival", "row": row, "lots": 1},
                    group="Rival city (round action)",
                )
            )
        if player.influence >= 1 and state.bank_ducats >= 1:
            choices.append(
                _choice(
                    key="influence-sell",
                    label="Sell 1 influence for 1 ducat",
                    action={"kind": "influence", "amount": 1, "sell": True},
                    group="Influence (round action)",
                )
            )
        if player.ducats >= 2:
            choices.append(
                _choice(
                    key="influence-buy",
                    label="Buy 1 influence for 2 ducats",
                    action={"kind": "influence", "amount": 1, "sell": False},
                    group="Influence (round action)",
                )
            )
        return choices

    def _free_choices(self, state: State, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        choices = []
        if player.rate_moves:
            for row in self.cat.rows:
                if player.tokens.get(row, 0) < 4:
                    choices.append(
                        _choice(
                            key=f"token:{row}",
                            label=f"Market: move your {row.replace('-', ' ')} token right (better rate)",
                            action={"kind": "token", "row": row},
                            group="Exchange tokens",
                        )
                    )
        if player.prestige_moves:
            for row in ("sales", "purchase"):
                if player.tokens.get(row, 0) < 4:
                    choices.append(
                        _choice(
                            key=f"token:{row}",
                            label=f"Festival Grounds: move your {row} prestige token down",
                            action={"kind": "token", "row": row},
                            group="Exchange tokens",
                        )
                    )
        if state.phase == "construction":
            for tile in self.owned(state, seat):
                if tile.building and self.cat.buildings[tile.building].produces:
                    for production in self.cat.buildings[tile.building].produces:
                        if production.mode != tile.mode:
                            choices.append(
                                _choice(
                                    key=f"produce:{tile.id}:{production.mode}",
                                    label=f"{self._name(tile.building)} on T{tile.id}: make "
                                    f"{_goods_text(production.output)}",
                                    action={"kind": "produce", "tile": tile.id, "mode": production.mode},
                                    group="Production",
                                )
                            )
        return choices

    # ---- apply ------------------------------------------------------------------------------------
    def _apply(self, state: State, seat: Seat, action: Any) -> list[Event]:
        events: list[Event] = []
        if state.proposal is not None:
            return self._answer(state, seat, action, events)
        if isinstance(action, Accept | Decline | Cancel):
            raise RuleError("There is no trade offer to answer.")
        if state.raid is not None:
            return self._raid_step(state, seat, action, events)
        if isinstance(action, Loot | Casualty):
            raise RuleError("There is no pillage to resolve.")
        player = state.players[seat]
        match action:
            case Pass():
                if state.acted is not None:
                    raise RuleError("Finish your action first (end it, or end it and pass).")
                if not self._may_pass(state, seat, bool(self._phase_choices(state, seat))):
                    if state.phase == "expansion" and not self.owned(state, seat):
                        raise RuleError("You have no tile yet: you must select one (the first is free).")
                    raise RuleError("A round action must go with a phase action: take one before passing.")
                self._pass(state, seat, events)
            case EndAction(and_pass=and_pass):
                if state.acted is None:
                    raise RuleError("You have no action in progress.")
                if and_pass:
                    state.acted = None
                    self._pass(state, seat, events)
                else:
                    self._next_turn(state, events)
            case BankTrade() | RivalTrade() | InfluenceTrade():
                self._round_action(state, seat, action, events)
            case Token(row=row):
                self._token(state, seat, row, events)
            case Produce(tile=tile_id, mode=mode):
                tile = self.tile(state, tile_id)
                if state.phase != "construction":
                    raise RuleError("Production is set in the Construction phase.")
                if tile.owner != seat or tile.building is None:
                    raise RuleError(f"You have no production building on T{tile_id}.")
                modes = [production.mode for production in self.cat.buildings[tile.building].produces]
                if mode not in modes:
                    raise RuleError(
                        f"{words.a(self._name(tile.building), start=True)} makes: {', '.join(modes) or 'nothing'}."
                    )
                tile.mode = mode
                events.append(
                    Event(text=f"{player.name}'s {self._name(tile.building)} on T{tile.id} will make {mode}.")
                )
            case _:
                self._phase_action(state, seat, action, events)
        return events

    def _pass(self, state: State, seat: Seat, events: list[Event]) -> None:
        state.players[seat].passed = True
        if state.first_passer is None:
            state.first_passer = seat
        events.append(Event(text=f"{state.players[seat].name} passed the {state.phase} phase."))
        self._next_turn(state, events)

    def _start(self, state: State, kind: ActionKind, allowed_phase: str, doing: str) -> None:
        if state.phase != allowed_phase:
            raise RuleError(f"You can {doing} only in the {allowed_phase.title()} phase.")
        if state.acted is not None and state.acted != kind:
            raise RuleError(f"Finish your {state.acted} action first.")

    def _phase_action(self, state: State, seat: Seat, action: Any, events: list[Event]) -> None:
        player = state.players[seat]
        match action:
            case BuyTile(tile=tile_id):
                self._start(state, "buy", "expansion", "buy tiles")
                if state.acted is not None:
                    raise RuleError("You buy one tile per action.")
                tile = self.tile(state, tile_id)
                if tile.owner is not None:
                    raise RuleError(f"T{tile.id} already belongs to {state.players[tile.owner].name}.")
                count = len(self.owned(state, seat))
                if count + 1 > player.workers:
                    raise RuleError(
                        f"This would be your tile number {count + 1} and you have only "
                        f"{words.count(player.workers, 'worker')} in all pools."
                    )
                if player.ready < 1:
                    raise RuleError("Buying a tile needs a Ready worker.")
                price = self.price(state, seat, tile.id)
                if player.ducats < price:
                    raise RuleError(
                        f"T{tile.id} costs {words.count(price, 'ducat')}; you have {player.ducats}."
                    )
                self.pay(state, seat, {"ducats": price, "workers": 1} if price else {"workers": 1})
                tile.owner = seat
                tile.house = "house"
                player.bought += 1
                state.acted = "buy"
                events.append(
                    Event(
                        text=f"{player.name} bought T{tile.id} ({tile.terrain}) for {words.count(price, 'ducat')} and placed a House."
                    )
                )
            case Garrison(layout=layout):
                self._start(state, "garrison", "construction", "garrison weapons")
                self._garrison(state, seat, layout, events)
            case Plant(tile=tile_id, resource=resource):
                self._start(state, "plant", "construction", "plant")
                tile = self.tile(state, tile_id)
                problem = self._plant_problem(state, seat, tile, resource)
                if problem:
                    raise RuleError(problem)
                self.pay(state, seat, {resource: 1, "workers": 1})
                old = tile.resource
                tile.resource = resource
                state.acted = "plant"
                events.append(
                    Event(
                        text=f"{player.name} planted {resource} on T{tile.id}"
                        + (f" over {old}." if old else ".")
                    )
                )
            case BuildAction(tile=tile_id, building=building):
                self._start(state, "build", "construction", "build")
                tile = self.tile(state, tile_id)
                problem = self._build_problem(state, seat, tile, building)
                if problem:
                    raise RuleError(problem)
                spec = self.cat.buildings[building]
                cost = self.cost(state, seat, spec.cost, building)
                self.pay(state, seat, cost)
                tile.building = building
                tile.mode = spec.produces[0].mode if spec.produces else None
                self._on_built(state, seat, building)
                state.acted = "build"
                events.append(
                    Event(
                        text=f"{player.name} built {words.a(spec.name)} on T{tile.id} ({self.cost_text(cost)})."
                    )
                )
            case Upgrade(tile=tile_id, building=target):
                self._start(state, "upgrade", "construction", "upgrade")
                tile = self.tile(state, tile_id)
                problem = self._upgrade_problem(state, seat, tile, target)
                if problem:
                    raise RuleError(problem)
                spec = self.cat.buildings[target]
                cost = self.cost(state, seat, spec.cost, target)
                self.pay(state, seat, cost)
                old = tile.house if spec.track == "house" else tile.building
                if spec.track == "house":
                    tile.house = target
                else:
                    tile.building = target
                    tile.mode = spec.produces[0].mode if spec.produces else None
                if spec.is_unique:
                    state.unique_built.append(target)
                self._on_built(state, seat, target)
                state.acted = "upgrade"
                events.append(
                    Event(
                        text=f"{player.name} upgraded the {self._name(old or '')} on T{tile.id} to {words.a(spec.name)} "
                        f"({self.cost_text(cost)})."
                    )
                )
            case Found(tile=tile_id, work=work):
                self._start(state, "works", "construction", "build public works")
                tile = self.tile(state, tile_id)
                problem = self._found_problem(state, seat, tile, work)
                if problem:
                    raise RuleError(problem)
                spec = self.cat.works[work]
                cost = self.cost(state, seat, spec.foundation)
                self.pay(state, seat, cost)
                tile.work = work
                tile.stages = 0
                state.works_placed.append(work)
                state.acted = "works"
                events.append(Event(text=f"{player.name} laid the {spec.name} foundation on T{tile.id}."))
            case Stage(tile=tile_id):
                self._start(state, "works", "construction", "build public works")
                tile = self.tile(state, tile_id)
                problem = self._stage_problem(state, seat, tile)
                if problem:
                    raise RuleError(problem)
                spec = self.cat.works[tile.work]  # type: ignore[index]
                self.pay(state, seat, self.cost(state, seat, spec.stage))
                tile.stages += 1
                state.acted = "works"
                text = (
                    f"{player.name} built stage {tile.stages}/{spec.stages} of the {spec.name} on T{tile.id}."
                )
                finished = tile.stages == spec.stages
                if finished:
                    text += f" The {spec.name} is finished!"
                    if tile.work == "carrariae":
                        text += self._carrariae(state, tile)
                # A finished public work changes every player's turn (ducats, defence, gathering, prestige).
                events.append(Event(text=text, urgent=finished))
            case Craft(good=good, count=count):
                self._start(state, "craft", "construction", "craft goods")
                found = self._craft_count(state, seat, good)
                if isinstance(found, str):
                    raise RuleError(found)
                most, needed = found
                if count > most:
                    raise RuleError(f"You can craft at most {words.count(most, good)} now.")
                if state.acted is None and player.ready < 1:
                    raise RuleError("Crafting needs a Ready worker.")
                cost = {key: value * count for key, value in needed.items()}
                self.pay(state, seat, cost | ({"workers": 1} if state.acted is None else {}))
                self._give(state, seat, good, count)
                state.acted = "craft"
                events.append(
                    Event(
                        text=f"{player.name} crafted {words.count(count, good)} from {self.cost_text(cost)}."
                    )
                )
            case Pillage():
                self._start(state, "pillage", "interaction", "pillage")
                if state.acted is not None:
                    raise RuleError("One pillage per action.")
                self._pillage(state, seat, action, events)
            case Propose():
                self._start(state, "trade", "interaction", "trade")
                if state.acted is not None:
                    raise RuleError("One trade per action.")
                give, get = _clean(action.give), _clean(action.get)
                proposal = Proposal(proposer=seat, partner=action.partner, give=give, get=get)
                problem = self._trade_problem(state, proposal)
                if problem:
                    raise RuleError(problem)
                state.proposal = proposal
                partner = state.players[action.partner].name
                events.append(
                    Event(
                        text=f"{player.name} offered {partner} a trade.",
                        private={
                            seat: f"You offer {_goods_text(give)} for {_goods_text(get)}.",
                            action.partner: f"{player.name} offers you {_goods_text(give)} for your {_goods_text(get)}.",
                        },
                        urgent=True,  # the partner must answer it
                    )
                )
            case _:
                raise RuleError("That is not something you can do now.")

    def _garrison(self, state: State, seat: Seat, layout: dict[int, int], events: list[Event]) -> None:
        player = state.players[seat]
        for tile_id, count in layout.items():
            tile = self.tile(state, tile_id)
            if tile.owner != seat:
                raise RuleError(f"You may garrison only your own tiles (T{tile_id} is not yours).")
            if count < 0:
                raise RuleError("A garrison cannot be negative.")
        mine = self.owned(state, seat)
        available = player.stock["weapons"] + sum(tile.garrison for tile in mine)
        wanted = sum(layout.values())
        if wanted > available:
            raise RuleError(
                f"You have {words.count(available, 'weapon')} in all (supply and garrisons), not {wanted}."
            )
        if {tile.id: tile.garrison for tile in mine if tile.garrison} == {
            t: n for t, n in layout.items() if n
        }:
            raise RuleError("That garrison is the one you already have.")
        if state.acted is None:
            if player.ready < 1:
                raise RuleError("A garrison action needs a Ready worker.")
            self.pay(state, seat, {"workers": 1})
        for tile in mine:
            tile.garrison = layout.get(tile.id, 0)
        player.stock["weapons"] = available - wanted
        state.acted = "garrison"
        where = ", ".join(f"T{t}: {n}" for t, n in sorted(layout.items()) if n) or "no tile"
        events.append(
            Event(text=f"{player.name} garrisoned weapons ({where}; {player.stock['weapons']} in supply).")
        )

    def _on_built(self, state: State, seat: Seat, building: str) -> None:
        spec = self.cat.buildings[building]
        player = state.players[seat]
        if spec.idle_workers:
            player.idle += spec.idle_workers
            player.workers += spec.idle_workers
        player.rate_moves += spec.rate_tokens
        player.prestige_moves += spec.prestige_tokens

    def _carrariae(self, state: State, tile: Tile) -> str:
        """'Adds Stone to adjacent hills: if on a neutral tile, in all adjacent tiles (and its own tile). If
        placed on a tile owned by a player, only in tiles owned by the player. Doesn't replace existing
        resources. Ownership calculated at completion of the final stage.'"""
        added = []
        for tile_id in (tile.id, *self.adjacent(state, tile.id)):
            other = state.tiles[tile_id - 1]
            if other.terrain != "hill" or other.resource is not None:
                continue
            if tile.owner is not None and other.owner != tile.owner:
                continue
            other.resource = "stone"
            added.append(f"T{tile_id}")
        return f" Stone appears on {', '.join(added)}." if added else " No empty hill gets stone."

    def _token(self, state: State, seat: Seat, row: str, events: list[Event]) -> None:
        player = state.players[seat]
        if row in ("sales", "purchase"):
            if player.prestige_moves < 1:
                raise RuleError(
                    "Each Festival Grounds lets you move a prestige token once; you have no move left."
                )
            if player.tokens.get(row, 0) >= 4:
                raise RuleError(f"Your {row} prestige token is already at the bottom.")
            player.prestige_moves -= 1
        else:
            if row not in self.cat.rows:
                raise RuleError(f"There is no exchange row {row!r}.")
            if player.rate_moves < 1:
                raise RuleError("Each Market lets you move an exchange token once; you have no move left.")
            if player.tokens.get(row, 0) >= 4:
                raise RuleError("That exchange token is already at the best rate.")
            player.rate_moves -= 1
        player.tokens[row] = player.tokens.get(row, 0) + 1
        events.append(Event(text=f"{player.name} moved the {row} exchange token."))

    def _round_action(self, state: State, seat: Seat, action: Any, events: list[Event]) -> None:
        player = state.players[seat]
        if state.current != seat:
            raise RuleError("Round actions are taken on your own turn.")
        match action:
            case BankTrade(resource=resource, count=count, sell=sell):
                problem = self._bank_problem(state, seat, resource, count, sell)
                if problem:
                    raise RuleError(problem)
                pays, asks = self.bank_price(resource)
                if sell:
                    player.stock[resource] -= count
                    state.bank[resource] += count
                    player.ducats += pays * count
                    state.bank_ducats -= pays * count
                    events.append(
                        Event(
                            text=f"{player.name} sold {words.count(count, resource)} to the bank for {words.count(pays * count, 'ducat')}."
                        )
                    )
                else:
                    player.stock[resource] += count
                    state.bank[resource] -= count
                    player.ducats -= asks * count
                    state.bank_ducats += asks * count
                    events.append(
                        Event(
                            text=f"{player.name} bought {words.count(count, resource)} from the bank for {words.count(asks * count, 'ducat')}."
                        )
                    )
            case RivalTrade(row=row, lots=lots):
                problem = self._rival_problem(state, seat, row, lots)
                if problem:
                    raise RuleError(problem)
                give, get, prestige = self.rival_terms(state, seat, row)
                resource = self.cat.rows[row].resource
                player.exchanged[row] = player.exchanged.get(row, 0) + lots
                if row.startswith("sell-"):
                    player.stock[resource] -= give * lots
                    state.outside[resource] += give * lots
                    player.ducats += get * lots
                    state.outside_ducats += get * lots
                    what = f"sold {words.count(give * lots, resource)} to the rival city for {words.count(get * lots, 'ducat')}"
                else:
                    player.ducats -= give * lots
                    state.outside_ducats -= give * lots
                    player.stock[resource] += get * lots
                    state.outside[resource] -= get * lots
                    what = f"bought {words.count(get * lots, resource)} from the rival city for {words.count(give * lots, 'ducat')}"
                state.prestige += prestige * lots
                events.append(Event(text=f"{player.name} {what}; city prestige {prestige * lots:+d}."))
            case InfluenceTrade(amount=amount, sell=sell):
                if sell:
                    if player.influence < amount:
                        raise RuleError(f"You have only {player.influence} influence.")
                    if state.bank_ducats < amount:
                        raise RuleError(f"The bank has only {words.count(state.bank_ducats, 'ducat')}.")
                    player.influence -= amount
                    self._pay_ducats(state, seat, amount)
                    events.append(
                        Event(
                            text=f"{player.name} sold {amount} influence for {words.count(amount, 'ducat')}."
                        )
                    )
                else:
                    if player.ducats < 2 * amount:
                        raise RuleError(
                            f"{amount} influence cost {words.count(2 * amount, 'ducat')}; you have {player.ducats}."
                        )
                    player.ducats -= 2 * amount
                    state.bank_ducats += 2 * amount
                    player.influence += amount
                    events.append(
                        Event(
                            text=f"{player.name} bought {amount} influence for {words.count(2 * amount, 'ducat')}."
                        )
                    )
        state.round_used = True

    # ---- trades -------------------------------------------------------------------------------------
    def _trade_problem(self, state: State, proposal: Proposal) -> str | None:
        if proposal.partner == proposal.proposer or not 0 <= proposal.partner < len(state.players):
            return "Choose another player to trade with."
        for items in (proposal.give, proposal.get):
            for key, count in items.items():
                if key not in TRADE_KEYS:
                    return f"{key!r} cannot be traded."
                if count < 0:
                    return "A trade cannot move a negative amount."
        if not proposal.give and not proposal.get:
            return "A trade cannot be empty."
        if proposal.give == proposal.get:
            return "A trade cannot swap identical goods both ways."
        for seat, items in ((proposal.proposer, proposal.give), (proposal.partner, proposal.get)):
            owner = state.players[seat]
            for key, count in items.items():
                have = owner.ducats if key == "ducats" else owner.stock[key]
                if have < count:
                    return f"{owner.name} has only {words.count(have, key)}."
        return None

    def _answer(self, state: State, seat: Seat, action: Any, events: list[Event]) -> list[Event]:
        proposal = state.proposal
        assert proposal is not None
        proposer, partner = state.players[proposal.proposer], state.players[proposal.partner]
        if seat == proposal.proposer and isinstance(action, Cancel):
            state.proposal = None
            events.append(
                Event(
                    text=f"{proposer.name} cancelled the trade offer to {partner.name}.",
                    private={
                        proposal.partner: f"{proposer.name} cancelled the trade offer to you "
                        f"({_terms(proposal, proposal.partner)})."
                    },
                )
            )
            return events
        if seat != proposal.partner or not isinstance(action, Accept | Decline):
            if seat == proposal.partner:
                raise RuleError("Accept or decline the trade you were offered.")
            raise RuleError(f"Wait for {partner.name} to answer your offer, or cancel it.")
        if isinstance(action, Decline):
            state.proposal = None
            events.append(
                Event(
                    text=f"{partner.name} declined {proposer.name}'s trade.",
                    private={
                        proposal.proposer: f"{partner.name} declined your trade offer "
                        f"({_terms(proposal, proposal.proposer)})."
                    },
                    urgent=True,  # the answer the proposer was waiting for
                )
            )
            return events
        problem = self._trade_problem(state, proposal)
        if problem:
            raise RuleError(problem)
        for giver, taker, items in ((proposer, partner, proposal.give), (partner, proposer, proposal.get)):
            for key, count in items.items():
                if key == "ducats":
                    giver.ducats -= count
                    taker.ducats += count
                else:
                    giver.stock[key] -= count
                    taker.stock[key] += count
        state.proposal = None
        state.acted = "trade"
        events.append(
            Event(
                text=f"{partner.name} accepted {proposer.name}'s trade.",
                private={
                    proposal.proposer: f"{partner.name} accepted your trade offer "
                    f"({_terms(proposal, proposal.proposer, done=True)}).",
                    proposal.partner: f"You accepted {proposer.name}'s trade offer "
                    f"({_terms(proposal, proposal.partner, done=True)}).",
                },
                urgent=True,  # goods changed hands between two players
            )
        )
        return events

    # ---- pillage ------------------------------------------------------------------------------------
    def _pillage(self, state: State, seat: Seat, action: Pillage, events: list[Event]) -> None:
        player = state.players[seat]
        target = self.tile(state, action.tile)
        if target.owner is None or target.owner == seat:
            raise RuleError(f"Pillage targets another player's tile (T{target.id} is not).")
        if target.pillaged:
            raise RuleError(f"T{target.id} was already pillaged this turn.")
        committed = {tile: count for tile, count in action.weapons.items() if count}
        if not committed:
            raise RuleError("Commit at least one garrisoned weapon.")
        for tile_id, count in committed.items():
            source = self.tile(state, tile_id)
            if source.owner != seat or tile_id not in self.adjacent(state, target.id):
                raise RuleError(
                    f"Weapons must come from your garrisons next to T{target.id} (not T{tile_id})."
                )
            if count < 0 or count > source.garrison:
                raise RuleError(
                    f"T{tile_id} has {words.count(source.garrison, 'ready weapon')}, not {count}."
                )
        if player.ready < 1:
            raise RuleError("Pillaging needs a Ready worker.")
        attack = sum(committed.values()) + self.attack_bonus(state, seat, target.id)
        defence = self.defence(state, target)
        if attack <= defence:
            raise RuleError(f"Attack {attack} against defence {defence}: T{target.id} cannot be pillaged.")
        self.pay(state, seat, {"workers": 1})
        defender = state.players[target.owner]
        score = attack - defence
        lost = min(attack // 2, target.garrison)
        target.garrison -= lost
        state.outside["weapons"] += lost
        target.pillaged = True
        state.log_pillaged.append(target.id)
        state.prestige -= score // 2
        player.influence += score
        influence_lost = min(score, defender.influence)
        defender.influence -= influence_lost
        tokens = 1 if score <= 5 else 2 if score <= 10 else 3
        player.pillage_tokens += tokens
        tokens_lost = min(tokens, defender.pillage_tokens)
        defender.pillage_tokens -= tokens_lost
        loot = min(score, sum(defender.stock.values()))
        events.append(
            Event(
                text=f"{player.name} pillaged {defender.name}'s T{target.id}: attack {attack} vs defence {defence}, "
                f"pillage score {score}. {defender.name} loses {words.count(lost, 'weapon')} and {score} influence "
                f"(as far as they have); {words.count(tokens, 'pillage token')} to {player.name}; city prestige "
                f"-{score // 2}.",
                urgent=True,  # another player's tile is pillaged; the summary follows as their private line
            )
        )
        state.acted = "pillage"
        state.raid = Raid(
            attacker=seat,
            defender=target.owner,
            tile=target.id,
            loot=loot,
            casualties=min(defence, sum(committed.values())),
            committed=committed,
            defenders_lost=lost,
            influence_lost=influence_lost,
            tokens_lost=tokens_lost,
        )
        self._settle_raid(state, events)

    def _settle_raid(self, state: State, events: list[Event]) -> None:
        """Run the raid's steps that need no choice: casualties from a single committed tile, the end."""
        raid = state.raid
        assert raid is not None
        if raid.loot:
            return
        sources = [tile for tile, count in raid.committed.items() if count]
        if raid.casualties and len(sources) == 1:
            tile = state.tiles[sources[0] - 1]
            tile.garrison -= raid.casualties
            raid.committed[sources[0]] -= raid.casualties
            state.outside["weapons"] += raid.casualties
            events.append(
                Event(
                    text=f"{state.players[raid.attacker].name} lost {words.count(raid.casualties, 'weapon')} from T{tile.id}."
                )
            )
            raid.casualties = 0
        if raid.casualties:
            return
        for tile_id, count in raid.committed.items():
            tile = state.tiles[tile_id - 1]
            tile.garrison -= count
            tile.spent += count
        state.raid = None
        events.append(self._pillage_summary(state, raid))

    def _pillage_summary(self, state: State, raid: Raid) -> Event:
        """The defender's own account of the raid, told to them alone (the guide's network game does the
        same); the table already saw the public line when the pillage was declared."""
        attacker = state.players[raid.attacker]
        taken = _goods_text(raid.taken) if raid.taken else "nothing (your stores were empty)"
        line = (
            f"Your T{raid.tile} was pillaged by {attacker.name}. They took {taken}. You lost "
            f"{words.count(raid.defenders_lost, 'defending weapon')}, {raid.influence_lost} influence and "
            f"{words.count(raid.tokens_lost, 'pillage token')}."
        )
        loot = sum(raid.taken.values())
        public = f"The pillage of T{raid.tile} is over: {attacker.name} carried off {words.count(loot, 'resource')}."
        return Event(text=public, private={raid.defender: line})

    def _raid_step(self, state: State, seat: Seat, action: Any, events: list[Event]) -> list[Event]:
        raid = state.raid
        assert raid is not None
        defender = state.players[raid.defender]
        player = state.players[seat]
        if isinstance(action, Loot) and raid.loot:
            if action.resource not in RESOURCES or defender.stock[action.resource] < 1:
                raise RuleError(f"{defender.name} has no {action.resource} to loot.")
            defender.stock[action.resource] -= 1
            player.stock[action.resource] += 1
            raid.taken[action.resource] = raid.taken.get(action.resource, 0) + 1
            raid.loot -= 1
            if sum(defender.stock.values()) == 0:
                raid.loot = 0
            events.append(
                Event(text=f"{player.name} looted {words.count(1, action.resource)} from {defender.name}.")
            )
        elif isinstance(action, Casualty) and not raid.loot and raid.casualties:
            if raid.committed.get(action.tile, 0) < 1:
                raise RuleError(f"No committed weapon of yours is left on T{action.tile}.")
            tile = state.tiles[action.tile - 1]
            tile.garrison -= 1
            raid.committed[action.tile] -= 1
            raid.casualties -= 1
            state.outside["weapons"] += 1
            events.append(Event(text=f"{player.name} lost 1 weapon from T{action.tile}."))
        else:
            raise RuleError(
                "First finish the pillage: " + ("choose the loot." if raid.loot else "choose the casualties.")
            )
        self._settle_raid(state, events)
        return events

    # ---- cleanup ------------------------------------------------------------------------------------
    def _cleanup(self, state: State, events: list[Event]) -> None:
        cat = self.cat
        lines: dict[Seat, list[str]] = {seat: [] for seat in range(len(state.players))}
        prestige_before = state.prestige
        # 1. 'For each 2 tiles you bought this turn (rounded down), gain 1 Worker into the busy pool.'
        for seat, player in enumerate(state.players):
            extra = player.bought // 2
            if extra:
                player.busy += extra
                player.workers += extra
                lines[seat].append(f"+{words.count(extra, 'worker')} for new tiles")
        # 2. Building bonuses, the Bank first.
        for tile in state.tiles:
            if tile.owner is not None and tile.house == "bank":
                spec = cat.buildings["bank"]
                player = state.players[tile.owner]
                paid = self._pay_ducats(
                    state, tile.owner, min(spec.dividend_max, player.ducats // spec.dividend_per)
                )
                if paid:
                    lines[tile.owner].append(f"Bank dividend {words.count(paid, 'ducat')}")
        self._building_bonuses(state, lines)
        # 3. Resources from owned tiles.
        for tile in state.tiles:
            if tile.owner is None or tile.resource is None or tile.pillaged:
                continue
            count = self.gathered(state, tile)
            if count:
                got = self._give(state, tile.owner, tile.resource, count)
                lines[tile.owner].append(f"T{tile.id} {words.count(got, tile.resource)}")
        # 4. Public works.
        self._works_bonuses(state, lines)
        # 5. Tile tax, pillage tokens.
        for seat, player in enumerate(state.players):
            tiles = len(self.owned(state, seat))
            if tiles:
                got = self._pay_ducats(state, seat, tiles)
                lines[seat].append(f"tile tax {words.count(got, 'ducat')}")
            if player.pillage_tokens:
                player.influence += player.pillage_tokens
                lines[seat].append(f"+{player.pillage_tokens} influence for pillage tokens")
        # 6. Worker rotation.
        for seat, player in enumerate(state.players):
            player.ready += player.idle
            player.idle = player.busy
            player.busy = 0
            extra = sum(
                cat.buildings[slot].rotation
                for tile in self.owned(state, seat)
                for slot in (tile.house, tile.building)
                if slot
            )
            moved = min(extra, player.idle)
            player.idle -= moved
            player.ready += moved
            fed = 0
            while player.idle and player.stock["wheat"] >= 2:
                player.stock["wheat"] -= 2
                state.bank["wheat"] += 2
                player.idle -= 1
                player.ready += 1
                fed += 1
            if moved:
                lines[seat].append(f"{words.count(moved, 'worker')} rested early")
            if fed:
                lines[seat].append(f"{2 * fed} wheat fed {words.count(fed, 'worker')}")
            player.bought = 0
        # Reset the turn's marks; the rival grows.
        for tile in state.tiles:
            tile.garrison += tile.spent
            tile.spent = 0
            tile.pillaged = False
        state.log_pillaged = []
        growth = self.rival_growth(state)
        state.rival_prestige += growth
        for seat, parts in lines.items():
            if parts:
                events.append(Event(text=f"Cleanup, {state.players[seat].name}: " + words.sentences(parts)))
        events.append(
            Event(
                text=f"End of turn {state.turn}: city prestige {state.prestige} ({state.prestige - prestige_before:+d}), "
                f"rival {state.rival_prestige} (+{growth}).",
                urgent=True,  # the cleanup's incomes and the city's prestige check against the rival
            )
        )

    def rival_growth(self, state: State) -> int:
        growth = self.cat.rival.rival.growth
        return growth[min(state.turn, len(growth)) - 1] * len(state.players)

    def gathered(self, state: State, tile: Tile) -> int:
        """'one resource of each type that is on a tile they own', +1 Mine/Foraging Hut, +2 Gathering Hut,
        +3 Harvesting Plant (or a finished Carrariae); Iron and Gold only with a Mine (or its upgrades)."""
        spec = self.cat.buildings[tile.building] if tile.building else None
        carrariae = tile.work == "carrariae" and self.work_done(state, tile)
        if tile.resource in ("iron", "gold") and not ((spec and spec.mines) or carrariae):
            return 0
        count = 1 + (spec.gather_extra if spec else 0)
        if carrariae:
            count += self.cat.works["carrariae"].gather_extra
        return count

    def _building_bonuses(self, state: State, lines: dict[Seat, list[str]]) -> None:
        cat = self.cat
        city_tiles = sum(1 for tile in state.tiles if tile.owner is not None)
        city_workers = sum(player.workers for player in state.players)
        manors = [self.has(state, seat, "manor") for seat in range(len(state.players))]
        market_seen: dict[Seat, set[int]] = {}
        festival_seen: dict[Seat, set[int]] = {}
        for tile in state.tiles:
            if tile.owner is None:
                continue
            seat = tile.owner
            player = state.players[seat]
            for slot in (tile.house, tile.building):
                if slot is None:
                    continue
                spec = cat.buildings[slot]
                if spec.prestige:
                    state.prestige += spec.prestige
                if spec.influence:
                    player.influence += spec.influence
                if spec.prestige or spec.influence:
                    lines[seat].append(
                        f"{spec.name} T{tile.id}: +{spec.prestige} prestige, +{spec.influence} influence"
                    )
                if spec.neighbour_influence:
                    owners = {
                        state.tiles[other - 1].owner
                        for other in self.adjacent(state, tile.id)
                        if state.tiles[other - 1].owner not in (None, seat)
                    }
                    if owners:
                        gain = spec.neighbour_influence * len(owners)
                        player.influence += gain
                        lines[seat].append(f"{spec.name} T{tile.id}: +{gain} influence from neighbours")
                if spec.produces:
                    self._produce(state, tile, spec, lines)
                if slot in ("temple", "cathedral"):
                    tiles = len(self.owned(state, seat))
                    ducats = tiles // 2
                    if self.has(state, seat, "cathedral"):
                        ducats += city_tiles // 2
                    paid = self._pay_ducats(state, seat, ducats)
                    influence = player.workers // 2 if slot == "temple" else city_workers
                    player.influence += influence
                    lines[seat].append(
                        f"{spec.name} T{tile.id}: {words.count(paid, 'ducat')}, +{influence} influence"
                    )
                if slot in MARKET_FAMILY and not tile.pillaged:
                    self._market(state, tile, market_seen.setdefault(seat, set()), lines)
                if slot == "festival-grounds" and not tile.pillaged:
                    self._festival(state, tile, festival_seen.setdefault(seat, set()), lines)
                if slot == "grand-bazaar":
                    for other in range(len(state.players)):
                        share = 1 if other == seat else 2
                        got = [
                            self._give(state, other, resource, (4 if resource in NATURALS else 2) // share)
                            for resource in RESOURCES
                        ]
                        lines[other].append(f"Grand Bazaar: {words.count(sum(got), 'resource')}")
                if (
                    slot == "manor"
                    and manors[seat]
                    and manors.count(max(manors)) == 1
                    and manors[seat] == max(manors)
                ):
                    player.influence += 5
                    lines[seat].append("most manors: +5 influence")

    def _produce(self, state: State, tile: Tile, spec: Any, lines: dict[Seat, list[str]]) -> None:
        seat = tile.owner
        assert seat is not None
        player = state.players[seat]
        production = next((p for p in spec.produces if p.mode == tile.mode), spec.produces[0])
        if player.stock["iron"] < production.iron:
            lines[seat].append(f"{spec.name} T{tile.id}: no iron to work")
            return
        player.stock["iron"] -= production.iron
        state.bank["iron"] += production.iron
        double = 2 if self.has(state, seat, "manufactory") and tile.building != "manufactory" else 1
        made = {
            good: self._give(state, seat, good, count * double) for good, count in production.output.items()
        }
        lines[seat].append(f"{spec.name} T{tile.id}: {_goods_text(made)}")

    def _market(self, state: State, market: Tile, seen: set[int], lines: dict[Seat, list[str]]) -> None:
        """1 ducat per adjacent (or own-tile) resource of the owner, 1 copy of the resource from another
        player's tile; each resource once per owner; pillaged tiles give nothing."""
        seat = market.owner
        assert seat is not None
        ducats, copies = 0, []
        for tile_id in (market.id, *self.adjacent(state, market.id)):
            tile = state.tiles[tile_id - 1]
            if tile_id in seen or tile.resource is None or tile.owner is None or tile.pillaged:
                continue
            seen.add(tile_id)
            if tile.owner == seat:
                ducats += self._pay_ducats(state, seat, 1)
            elif self._give(state, seat, tile.resource, 1):
                copies.append(tile.resource)
        if ducats or copies:
            extra = f", {', '.join(copies)}" if copies else ""
            lines[seat].append(
                f"{self._name(market.building or '')} T{market.id}: {words.count(ducats, 'ducat')}{extra}"
            )

    def _festival(self, state: State, grounds: Tile, seen: set[int], lines: dict[Seat, list[str]]) -> None:
        seat = grounds.owner
        assert seat is not None
        ducats, copies = 0, []
        for tile_id in self.adjacent(state, grounds.id):
            tile = state.tiles[tile_id - 1]
            if tile_id in seen or tile.owner is None or tile.pillaged or tile.building not in FESTIVAL_GOODS:
                continue
            seen.add(tile_id)
            if tile.owner == seat:
                ducats += self._pay_ducats(state, seat, 2)
            elif self._give(state, seat, FESTIVAL_GOODS[tile.building], 1):  # type: ignore[index]
                copies.append(FESTIVAL_GOODS[tile.building])  # type: ignore[index]
        if ducats or copies:
            extra = f", {', '.join(copies)}" if copies else ""
            lines[seat].append(f"Festival Grounds T{grounds.id}: {words.count(ducats, 'ducat')}{extra}")

    def _works_bonuses(self, state: State, lines: dict[Seat, list[str]]) -> None:
        cat = self.cat
        count = len(state.players)
        for tile in state.tiles:
            if not tile.work or not self.work_done(state, tile):
                continue
            spec = cat.works[tile.work]
            state.prestige += spec.prestige
            if tile.owner is not None and spec.owner_influence:
                state.players[tile.owner].influence += spec.owner_influence
                lines[tile.owner].append(f"{spec.name}: +{spec.owner_influence} influence")
            if tile.work == "city-hall":
                if tile.owner is None:
                    for seat in range(count):
                        got = self._pay_ducats(state, seat, 2)
                        lines[seat].append(f"City Hall: {words.count(got, 'ducat')}")
                else:
                    for seat, player in enumerate(state.players):
                        if seat == tile.owner:
                            continue
                        paid = min(2, player.ducats)
                        player.ducats -= paid
                        state.players[tile.owner].ducats += paid
                        if paid:
                            lines[seat].append(f"paid {words.count(paid, 'ducat')} to the City Hall")
                            lines[tile.owner].append(
                                f"City Hall: {words.count(paid, 'ducat')} from {player.name}"
                            )
            elif tile.work == "la-rotonda":
                for tile_id in self.adjacent(state, tile.id):
                    other = state.tiles[tile_id - 1]
                    if (
                        other.owner is None
                        or other.terrain != "plain"
                        or other.resource is None
                        or other.pillaged
                    ):
                        continue
                    if self.gathered(state, other) and self._give(state, other.owner, other.resource, 1):
                        lines[other.owner].append(
                            f"La Rotonda: +{words.count(1, other.resource)} from T{tile_id}"
                        )
            elif tile.work == "biblioteka-marciana":
                near = {tile.id, *self.adjacent(state, tile.id)}
                for other in state.tiles:
                    if other.owner is None or other.building not in SCHOLARLY:
                        continue
                    bonus = 4 if other.id in near else 2
                    state.prestige += bonus
                    state.players[other.owner].influence += bonus
                    lines[other.owner].append(
                        f"Biblioteka: {self._name(other.building or '')} T{other.id} +{bonus}"
                    )

    # ---- views and result ---------------------------------------------------------------------------
    def score(self, state: State, seat: Seat) -> dict[str, int]:
        player = state.players[seat]
        naturals = sum(player.stock[name] for name in NATURALS)
        weapons_out = sum(tile.garrison + tile.spent for tile in self.owned(state, seat))
        goods = sum(player.stock[name] for name in GOODS) + weapons_out
        total = player.influence + naturals + 2 * goods + player.ducats // 3
        return {
            "score": total,
            "influence": player.influence,
            "naturals": naturals,
            "goods": goods,
            "ducats": player.ducats,
        }

    def _label(self, tile: Tile) -> str:
        parts = []
        if tile.house and tile.house != "house":
            parts.append(self._name(tile.house))
        if tile.building:
            parts.append(self._name(tile.building))
        if tile.work:
            parts.append(self._name(tile.work))
        return " / ".join(parts)

    def _view(self, state: State, seat: Seat | None) -> CityHeroesView:
        seats = []
        counts = self.counts(state)
        for index, player in enumerate(state.players):
            rates = []
            for row, spec in self.cat.rows.items():
                give, get, _ = self.rival_terms(state, index, row, counts)
                rates.append(
                    RateView(
                        row=row,
                        resource=spec.resource,
                        direction="sell" if row.startswith("sell-") else "buy",
                        give=give,
                        get=get,
                        position=self.rate_position(state, index, row, counts),
                        used=player.exchanged.get(row, 0),
                        limit=self.rival_limit(state, index, counts),
                    )
                )
            rival = self.cat.rival
            seats.append(
                SeatView(
                    seat=index,
                    name=player.name,
                    stock=dict(player.stock),
                    ducats=player.ducats,
                    influence=player.influence,
                    ready=player.ready,
                    busy=player.busy,
                    idle=player.idle,
                    workers=player.workers,
                    tiles=len(self.owned(state, index)),
                    pillage_tokens=player.pillage_tokens,
                    passed=player.passed,
                    sales_prestige=rival.sales_prestige[self.rate_position(state, index, "sales", counts)],
                    purchase_prestige=rival.purchase_prestige[
                        self.rate_position(state, index, "purchase", counts)
                    ],
                    rates=rates,
                    score=self.score(state, index)["score"],
                )
            )
        tiles = [
            TileView(
                **tile.model_dump(),
                stages_needed=self.cat.works[tile.work].stages if tile.work else 0,
                label=self._label(tile),
            )
            for tile in state.tiles
        ]
        proposal = None
        if state.proposal is not None:
            party = seat in (state.proposal.proposer, state.proposal.partner)
            proposal = ProposalView(
                proposer=state.proposal.proposer,
                partner=state.proposal.partner,
                give=state.proposal.give if party else None,
                get=state.proposal.get if party else None,
                text=(
                    f"{state.players[state.proposal.proposer].name} gives {_goods_text(state.proposal.give)}; "
                    f"{state.players[state.proposal.partner].name} gives {_goods_text(state.proposal.get)}."
                )
                if party
                else None,
            )
        raid = (
            RaidView(
                attacker=state.raid.attacker,
                defender=state.raid.defender,
                tile=state.raid.tile,
                loot=state.raid.loot,
                casualties=state.raid.casualties,
            )
            if state.raid
            else None
        )
        result = self._result(state)
        scoreboard = None
        if result is not None:
            scoreboard = [
                ScoreLine(
                    place=place + 1, seat=index, name=state.players[index].name, **self.score(state, index)
                )
                for place, group in enumerate(result.ranking)
                for index in group
            ]
        return CityHeroesView(
            game=self.info.id,
            seat=seat,
            players=[player.name for player in state.players],
            to_act=sorted(self.to_act(state)),
            headline=self._headline(state, result),
            finished=result is not None,
            topic=rules_topic(state),
            turn=state.turn,
            turns=state.turns,
            phase=state.phase,
            current=state.current if state.phase != "over" else None,
            acted=state.acted,
            radius=state.radius,
            tiles=tiles,
            seats=seats,
            prestige=state.prestige,
            rival_prestige=state.rival_prestige,
            rival_growth=self.rival_growth(state) if state.phase != "over" else 0,
            bank=dict(state.bank),
            bank_ducats=state.bank_ducats,
            works={key: spec.name for key, spec in self.cat.works.items()},
            proposal=proposal,
            raid=raid,
            city_wins=(state.prestige >= state.rival_prestige) if result is not None else None,
            scoreboard=scoreboard,
        )

    def _headline(self, state: State, result: Result | None) -> str:
        if result is not None:
            return f"Game over - {words.clause(result.reason)}"
        current = state.players[state.current].name
        text = f"Turn {state.turn}/{state.turns} - {state.phase.title()} - {current} to act"
        if state.proposal is not None:
            text += f" - waiting for {state.players[state.proposal.partner].name} to answer a trade"
        if state.raid is not None:
            text += " - resolving a pillage"
        return f"{text} - prestige {state.prestige} vs rival {state.rival_prestige}"

    def _result(self, state: State) -> Result | None:
        """Most influence wins (1 per natural resource, 2 per good, 1 per 3 ducats); ties: more ducats,
        then shared. If the city's prestige is below the rival's, everybody loses."""
        if state.phase != "over":
            return None
        breakdown = {seat: self.score(state, seat) for seat in range(len(state.players))}

        def key(seat: Seat) -> tuple[int, int]:
            return breakdown[seat]["score"], breakdown[seat]["ducats"]

        seats = sorted(range(len(state.players)), key=key, reverse=True)
        ranking: list[list[Seat]] = []
        for seat in seats:
            if ranking and key(ranking[-1][0]) == key(seat):
                ranking[-1].append(seat)
            else:
                ranking.append([seat])
        name = {seat: state.players[seat].name for seat in seats}
        names = words.listed(name[seat] for seat in ranking[0])
        best = breakdown[ranking[0][0]]["score"]
        if state.prestige < state.rival_prestige:
            reason = (
                f"The city's prestige {state.prestige} is below the rival's {state.rival_prestige}, "
                f"so everybody loses (most influence: {names}, {best})."
            )
        else:
            city = f"The city's prestige {state.prestige} beats the rival's {state.rival_prestige}"
            if state.prestige == state.rival_prestige:
                # Project decision (data/city_heroes/README.md): the guide's 'less Prestige than your
                # rival, all players lose' rules a tie, so a tie does not lose.
                city = (
                    f"The city's prestige {state.prestige} ties the rival's {state.rival_prestige}, "
                    "and a tie is not less prestige, so nobody loses to the rival"
                )
            tied = [seat for seat in seats if breakdown[seat]["score"] == best]
            ducats = breakdown[ranking[0][0]]["ducats"]
            if len(ranking[0]) > 1:
                how = f"{names} share the win with {best} influence and {words.count(ducats, 'ducat')} each"
            elif len(tied) > 1:
                others = [seat for seat in tied if seat not in ranking[0]]
                how = (
                    f"{words.listed(name[seat] for seat in tied)} tie on {best} influence and {names} wins "
                    f"on ducats, {ducats} to {breakdown[others[0]]['ducats']}"
                )
            elif len(seats) > 1:
                second = ranking[1][0]
                how = f"{names} wins with the most influence, {best} to {name[second]}'s {breakdown[second]['score']}"
            else:
                how = f"{names} wins with {best} influence"
            reason = f"{city}; {how}."
        for line in breakdown.values():
            line["city_won"] = int(state.prestige >= state.rival_prestige)
        return Result(
            scores={seat: line["score"] for seat, line in breakdown.items()},
            ranking=ranking,
            reason=reason,
            breakdown=breakdown,
            no_winner=state.prestige < state.rival_prestige,
        )


PHASE_TOPICS: dict[str, str] = {
    "expansion": "expansion",
    "construction": "construction",
    "interaction": "trading",
    "over": "game-end",
}
"""The `/rules` topic (data/city_heroes/rules.md) of each phase."""


def rules_topic(state: State) -> str:
    """The `/rules` topic of the current step, for the turn message's link."""
    if state.phase != "over" and state.raid is not None:
        return "pillaging"
    if state.phase != "over" and state.proposal is not None:
        return "trading"
    return PHASE_TOPICS[state.phase]

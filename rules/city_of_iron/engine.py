"""City of Iron: the rules, from the publisher's rulebook (see data/city_of_iron/README.md for decisions)."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from itertools import combinations, permutations
from typing import Any, ClassVar

from rules import words
from rules.city_of_iron import scoring
from rules.city_of_iron.data import CardAction, GameData, game_data
from rules.city_of_iron.catalogue import entries as catalogue_entries
from rules.city_of_iron.scoring import building, card, town
from rules.city_of_iron.state import (
    Action,
    Arrange,
    Attack,
    Bid,
    Build,
    BuyScience,
    ChooseGood,
    City,
    CityState,
    ClearSelection,
    Done,
    DrawCard,
    MoveBuilding,
    PickNation,
    Play,
    Player,
    Rebid,
    Select,
    Store,
    Tax,
)
from rules.city_of_iron.view import CityOfIronView, build_view
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
    View,
)

OPTIONS = (
    OptionSpec(
        name="nations",
        label="Nations",
        kind="choice",
        default="random",
        choices=["random", "pick"],
        description="Deal nations at random, or let each player pick one in seat order.",
    ),
    OptionSpec(
        name="abilities",
        label="Nation abilities",
        kind="bool",
        default=False,
        description="Play with each nation's special abilities and cards (off for a first game).",
    ),
    OptionSpec(
        name="expansion",
        label="Town expansion",
        kind="bool",
        default=False,
        description="Add the seven no-star expansion towns, three of them on offer at a time.",
    ),
    OptionSpec(
        name="stored_penalty",
        label="Stored building penalty",
        kind="choice",
        default="per_card",
        choices=["per_card", "per_two"],
        description="At game end lose 1 VP per stored building, or 1 VP per 2 stored buildings.",
    ),
)

RULES_TOPICS: dict[str, str] = {
    "nation": "nations",
    "arrange": "setup",
    "bid": "bidding",
    "rebid": "bidding",
    "actions": "actions",
    "snyle": "expansion-towns",
    "purchase": "end-of-round",
    "over": "game-end",
}
"""The `/rules` topic (data/city_of_iron/rules.md) of each phase, for the turn message's link."""

PAYMENT_LIMIT = 6
"""Most payment combinations offered per card action or per attack target and role."""


def _choice(
    key: str, label: str, action: dict[str, Any], group: str = "", style: str = "secondary"
) -> Choice:
    """A Choice built without re-validation (hundreds per step in playouts): every field is made here,
    with `_key` and `_label` already cutting to length; tests re-validate choices from whole games."""
    choice = object.__new__(Choice)
    fields = {"key": key, "label": label, "action": action, "group": group, "style": style}
    object.__setattr__(choice, "__dict__", fields)
    object.__setattr__(choice, "__pydantic_fields_set__", set(fields))
    object.__setattr__(choice, "__pydantic_extra__", None)
    object.__setattr__(choice, "__pydantic_private__", None)
    return choice


def _action(model: Any, **fields: Any) -> dict[str, Any]:
    """An action as the JSON dict `apply` accepts (what `model(**fields).model_dump()` gives, minus defaults)."""
    return {"kind": model.__pydantic_fields__["kind"].default, **fields}


def _key(text: str) -> str:
    if len(text) <= 60:
        return text
    digest = hashlib.sha1(text.encode()).hexdigest()[:10]
    return f"{text[:49]}~{digest}"


def _label(text: str) -> str:
    return text if len(text) <= 100 else text[:99] + "…"


def _names(uids: list[str]) -> str:
    return words.listed((card(uid).name for uid in uids), empty="nothing")


@lru_cache(maxsize=4096)
def _minimal_sets(
    cards: tuple[str, ...], skill: str, need: int, flag: str | None, limit: int
) -> tuple[tuple[str, ...], ...]:
    if need <= 0 and flag is None:
        return ((),)
    useful: list[str] = []
    per_name: dict[str, int] = {}
    for uid in cards:
        kind = card(uid)
        useful_card = getattr(kind, skill) > 0 or (flag and getattr(kind, flag))
        if useful_card and per_name.get(kind.id, 0) < max(need, 1):
            per_name[kind.id] = per_name.get(kind.id, 0) + 1
            useful.append(uid)
    useful.sort(key=lambda uid: -getattr(card(uid), skill))
    values = {uid: getattr(card(uid), skill) for uid in useful}
    flags = {uid: bool(flag and getattr(card(uid), flag)) for uid in useful}
    results: list[tuple[str, ...]] = []
    seen: set[tuple[str, ...]] = set()

    def valid(chosen: tuple[str, ...]) -> bool:
        if sum(values[uid] for uid in chosen) < need:
            return False
        return flag is None or any(flags[uid] for uid in chosen)

    for size in range(1, min(len(useful), need + (1 if flag else 0)) + 1):
        for chosen in combinations(useful, size):
            if not valid(chosen):
                continue
            if any(valid(chosen[:index] + chosen[index + 1 :]) for index in range(size)):
                continue
            signature = tuple(sorted(uid.rsplit(".", 1)[0] for uid in chosen))
            if signature in seen:
                continue
            seen.add(signature)
            results.append(chosen)
            if len(results) >= limit:
                return tuple(results)
    return tuple(results)


@lru_cache(maxsize=256)
def _overridden(card_id: str, nation: str) -> CardAction | None:
    """A card's action with its nation's changes (Cresarians: the Scholar pays 0 coins)."""
    action = game_data().cards[card_id].action
    override = game_data().nations[nation].action_overrides.get(card_id)
    return action.model_copy(update=override) if (action and override) else action


# Choices that depend only on their content are built once and shared: treat choices as read-only.
@lru_cache(maxsize=1024)
def _store_choice(uid: str) -> Choice:
    return _choice(
        key=f"store:{uid}",
        label=_label(f"Store {building(uid).name} for later"),
        action=_action(Store, card=uid),
        group="Store",
    )


@lru_cache(maxsize=1024)
def _select_choice(uid: str) -> Choice:
    kind = card(uid)
    cost = f"{words.count(kind.coins, 'coin')}" + (f", {kind.science} science" if kind.science else "")
    return _choice(
        key=f"select:{uid}",
        label=_label(f"Buy {kind.name} ({kind.deck}, {cost})"),
        action=_action(Select, card=uid),
        group="Buy cards",
    )


@lru_cache(maxsize=8192)
def _build_choice(uid: str, site_id: str, where: str, old: str | None, cost: str, stored: bool) -> Choice:
    text = f"Build {building(uid).name} ({cost}) in {where}"
    key = f"build:{uid}:{site_id}"
    if old:
        text += f", demolishing {building(old).name}"
        key += f":x:{old}"
    if stored:
        text += " (stored)"
    return _choice(
        key=_key(key),
        label=_label(text),
        action=_action(Build, card=uid, site=site_id, demolish=old),
        group="Build",
        style="primary",
    )


@lru_cache(maxsize=8192)
def _play_choice(
    uid: str, action: CardAction, payers: tuple[str, ...], target: tuple[tuple[str, str], ...], where: str
) -> Choice:
    data = game_data()
    chosen = dict(target)
    text = ("Free: " if action.free else "") + card(uid).name
    key = f"play:{uid}"
    if action.kind == "settle":
        land = data.lands[chosen["land"]]
        token = next(token for token in data.board.tokens if token.id == chosen["token"])
        text += f": settle {land.name} (dist {land.distance}) as {words.a(str(token.city))}-city ({token.city_draws})"
        key += f":{chosen['land']}:{chosen['token']}"
    elif action.kind == "district":
        token = next(token for token in data.board.tokens if token.id == chosen["token"])
        text += f": +{token.district} district ({token.district_draws}) in {where}"
        key += f":{chosen['city']}:{chosen['token']}"
    elif action.text:
        text += f": {action.text}"
    if payers:
        text = f"{words.clause(text)}; pay with {_names(list(payers))}"
        key += ":" + ".".join(payer.rsplit(".", 1)[0] for payer in payers)
    return _choice(
        key=_key(key),
        label=_label(text),
        action=_action(Play, card=uid, payers=list(payers), **chosen),
        group="Free actions" if action.free else "Card actions",
    )


@lru_cache(maxsize=8192)
def _attack_choice(
    town_id: str, defense: int, distance: int, whose: str, attackers: tuple[str, ...], payers: tuple[str, ...]
) -> Choice:
    text = f"Attack {town(town_id).name}{whose} (D{defense}, dist {distance}) with {_names(list(attackers))}"
    key = f"attack:{town_id}:" + ".".join(uid.rsplit(".", 1)[0] for uid in attackers)
    if payers:
        text += f"; distance {_names(list(payers))}"
        key += ":" + ".".join(uid.rsplit(".", 1)[0] for uid in payers)
    return _choice(
        key=_key(key),
        label=_label(text),
        action=_action(Attack, town=town_id, attackers=list(attackers), distance=list(payers)),
        group="Attack",
        style="danger",
    )


class CityOfIron(Game[CityState]):
    info: ClassVar[GameInfo] = GameInfo(
        id="city-of-iron",
        name="City of Iron",
        min_players=2,
        max_players=4,
        summary="Build cities, corner rare goods, conquer towns and outbid rivals for turn order.",
        hidden_information=True,
        randomness=True,
        simultaneous=True,
        options=OPTIONS,
    )
    state_model = CityState
    view_model = CityOfIronView
    action_type = Action

    # ---- setup -----------------------------------------------------------------------------
    def _setup(self, players: list[str], options: dict[str, Any], rng: Rng) -> CityState:
        data = game_data()
        count = len(players)
        board = data.board
        box: list[str] = []

        decks: dict[str, list[str]] = {"A": [], "B": [], "C": []}
        for kind in data.buildings.values():
            for index, mark in enumerate(kind.copies):
                uid = f"{kind.id}.{index + 1}"
                removed = (mark == 3 and count <= 3) or (mark == 2 and count <= 2)
                (box if removed else decks[kind.deck]).append(uid)
        deck: list[str] = []
        for letter in ("A", "B", "C"):
            deck.extend(rng.shuffled(decks[letter]))
            deck.append(f"score-{letter}")
        slots = board.row_slots[count]
        row: list[str | None] = [deck.pop(0) for _ in range(slots)]

        piles: dict[str, list[str]] = {"1": [], "2": [], "3": []}
        expansion: list[str] = []
        for town_data in data.towns.values():
            demons = "bottled_demons" in town_data.goods
            ore = "ore" in town_data.goods
            if town_data.stars == 0:
                (expansion if options["expansion"] else box).append(town_data.id)
            elif (count <= 3 and demons) or (count <= 2 and ore):
                box.append(town_data.id)
            else:
                piles[str(town_data.stars)].append(town_data.id)
        piles = {stars: rng.shuffled(pile) for stars, pile in piles.items()}
        expansion = rng.shuffled(expansion)
        row_size = board.expansion_row if options["expansion"] else 0
        expansion_row, expansion_deck = expansion[:row_size], expansion[row_size:]

        starts = [land.id for land in data.lands.values() if land.start]
        lands: list[str] = []
        for land in data.lands.values():
            if land.start:
                if land.id not in starts[:count]:
                    box.append(land.id)
            elif count == 2 and not land.two_player:
                box.append(land.id)
            else:
                lands.append(land.id)

        start_token = next(token.id for token in board.tokens if token.start)
        others = [token.id for token in board.tokens if not token.start]
        seats = [
            Player(
                name=name,
                coins=board.starting_coins,
                cities=[City(id=f"{seat}-1", land=starts[seat], token=start_token)],
                tokens=list(others),
            )
            for seat, name in enumerate(players)
        ]
        state = CityState(
            players=seats,
            rng=rng,
            nations_mode=options["nations"],
            abilities=options["abilities"],
            expansion=options["expansion"],
            stored_penalty=options["stored_penalty"],
            phase="nation" if options["nations"] == "pick" else "arrange",
            row=row,
            deck=deck,
            box=box,
            town_piles=piles,
            expansion_row=expansion_row,
            expansion_deck=expansion_deck,
            lands=lands,
            bid_order=rng.shuffled(range(count)),
        )
        if state.phase == "arrange":
            nations = rng.shuffled(list(data.nations))
            for seat, player in enumerate(state.players):
                player.nation = nations[seat]
            self._deal_cards(state)
        return state

    def opening_events(self, state: CityState) -> list[Event]:
        """Setup 9, 'Randomly determine beginning bid order', and the nations dealt at random happen in
        `setup` (read from the state it returned): told in the first post."""
        names = [player.name for player in state.players]
        events = [
            Event(
                text="Bid order, drawn at random (left to right on the bid track): "
                + words.listed(names[seat] for seat in state.bid_order)
                + ".",
                reveals=True,
            )
        ]
        if state.nations_mode == "random":
            nations = game_data().nations
            dealt = words.listed(
                f"the {nations[player.nation].name} to {player.name}"
                for player in state.players
                if player.nation
            )
            events.append(Event(text=f"Nations dealt at random: {dealt}.", reveals=True))
        return events

    def _deal_cards(self, state: CityState) -> None:
        """Every player's citizen and military cards; starting decks in data order until arranged."""
        data = game_data()
        for seat, player in enumerate(state.players):
            nation = data.nations[player.nation] if player.nation else None
            special = state.abilities and nation is not None
            start = (
                (nation.start_citizen + nation.start_military)
                if special and nation
                else (data.board.start_citizen + data.board.start_military)
            )
            owned: list[str] = []
            for kind in data.cards.values():
                copies = kind.copies
                if kind.nation is not None:
                    wanted = special and kind.nation == player.nation
                    copies = copies if wanted else 0
                for index in range(copies):
                    owned.append(f"{kind.id}.{seat}{chr(97 + index)}")
            citizen: list[str] = []
            military: list[str] = []
            for type_id in start:
                uid = next(uid for uid in owned if uid.rsplit(".", 1)[0] == type_id)
                owned.remove(uid)
                (citizen if card(uid).deck == "citizen" else military).append(uid)
            player.citizen_draw = citizen
            player.military_draw = military
            player.unpurchased = owned

    # ---- whose turn ------------------------------------------------------------------------------
    def _to_act(self, state: CityState) -> set[Seat]:
        if state.phase in ("arrange", "purchase"):
            return {seat for seat, player in enumerate(state.players) if not player.done}
        if state.phase == "over":
            return set()
        return {state.current}

    # ---- legal actions -----------------------------------------------------------------------------
    def _legal_actions(self, state: CityState, seat: Seat) -> list[Choice]:
        phase = state.phase
        if phase == "nation":
            return self._nation_choices(state)
        if phase == "arrange":
            return self._arrange_choices(state, seat)
        if phase in ("bid", "rebid"):
            return self._bid_choices(state, seat)
        if phase == "actions":
            return self._action_choices(state, seat)
        if phase == "snyle":
            return self._snyle_choices(state, seat)
        if phase == "purchase":
            return self._purchase_choices(state, seat)
        return []

    def _nation_choices(self, state: CityState) -> list[Choice]:
        data = game_data()
        taken = {player.nation for player in state.players}
        return [
            _choice(
                key=f"nation:{nation.id}",
                label=f"Play the {nation.name}",
                action=_action(PickNation, nation=nation.id),
                group="Nation",
                style="primary",
            )
            for nation in data.nations.values()
            if nation.id not in taken
        ]

    def _arrange_choices(self, state: CityState, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        citizen = [uid.rsplit(".", 1)[0] for uid in player.citizen_draw]
        military = [uid.rsplit(".", 1)[0] for uid in player.military_draw]
        choices = []
        for c_order in dict.fromkeys(permutations(citizen)):
            for m_order in dict.fromkeys(permutations(military)):
                c_names = ", ".join(game_data().cards[t].name for t in c_order)
                m_names = ", ".join(game_data().cards[t].name for t in m_order)
                choices.append(
                    _choice(
                        key=_key(f"arrange:{','.join(c_order)}/{','.join(m_order)}"),
                        label=_label(f"Citizens {c_names}; military {m_names} (top first)"),
                        action=_action(Arrange, citizen=list(c_order), military=list(m_order)),
                        group="Starting decks",
                    )
                )
        return choices

    def _bid_choices(self, state: CityState, seat: Seat) -> list[Choice]:
        costs = self._bid_costs(state)
        player = state.players[seat]
        choices: list[Choice] = []
        if state.phase == "rebid":
            now = state.track.index(seat)
            choices.append(
                _choice(
                    key="rebid:keep",
                    label=f"Keep your bid (space {now + 1})",
                    action=_action(Rebid),
                    group="Second bid",
                )
            )
            for space, cost in enumerate(costs):
                if state.track[space] is None and cost >= costs[now] and cost - costs[now] <= player.coins:
                    choices.append(
                        _choice(
                            key=f"rebid:{space}",
                            label=f"Move to space {space + 1} ({words.count(cost - costs[now], 'more coin')})",
                            action=_action(Rebid, space=space),
                            group="Second bid",
                        )
                    )
            return choices
        for space in self._bid_spaces(state, seat):
            choices.append(
                _choice(
                    key=f"bid:{space}",
                    label=f"Bid {costs[space]} (space {space + 1} of {len(costs)}, "
                    f"{self._turn_position(state, space)} in turn order so far)",
                    action=_action(Bid, space=space),
                    group="Bid",
                    style="primary" if costs[space] == 0 else "secondary",
                )
            )
        return choices

    @staticmethod
    def _turn_position(state: CityState, space: int) -> str:
        ahead = sum(1 for index in range(space + 1, len(state.track)) if state.track[index] is not None)
        return ["1st", "2nd", "3rd", "4th"][ahead]

    def _bid_costs(self, state: CityState) -> list[int]:
        return game_data().board.bid_costs[len(state.players)]

    def _bid_spaces(self, state: CityState, seat: Seat) -> list[int]:
        costs = self._bid_costs(state)
        coins = state.players[seat].coins
        open_spaces = [space for space, who in enumerate(state.track) if who is None]
        affordable = [space for space in open_spaces if costs[space] <= coins]
        if affordable:
            return affordable
        cheapest = min(costs[space] for space in open_spaces)
        return [space for space in open_spaces if costs[space] == cheapest]

    def _snyle_choices(self, state: CityState, seat: Seat) -> list[Choice]:
        data = game_data()
        return [
            _choice(
                key=f"snyle:{good}",
                label=f"Snyle gives 2 {data.goods[good].name}",
                action=_action(ChooseGood, good=good),
                group="Snyle",
            )
            for good in self._snyle_goods(state, state.players[seat])
        ]

    def _purchase_choices(self, state: CityState, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        coins, science = self._selected_cost(player)
        choices = [
            _choice(
                key="purchase:done",
                label="Done choosing"
                + (f" ({words.count(len(player.selected), 'card')})" if player.selected else ""),
                action=_action(Done),
                group="Purchase",
                style="success",
            )
        ]
        if player.selected:
            choices.append(
                _choice(
                    key="purchase:clear",
                    label="Clear my choices",
                    action=_action(ClearSelection),
                    group="Purchase",
                    style="danger",
                )
            )
        seen: set[str] = set()
        for uid in player.unpurchased:
            kind = card(uid)
            if uid in player.selected or kind.id in seen:
                continue
            if coins + kind.coins <= player.coins and science + kind.science <= player.science:
                seen.add(kind.id)
                choices.append(_select_choice(uid))
        return choices

    def _action_choices(self, state: CityState, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        choices: list[Choice] = []
        choices.extend(self._build_choices(state, seat))
        choices.extend(self._play_choices(state, seat))
        choices.extend(self._attack_choices(state, seat))
        for uid in state.row:
            if uid is not None:
                choices.append(_store_choice(uid))
        for deck in ("citizen", "military"):
            if getattr(player, f"{deck}_draw") or getattr(player, f"{deck}_discard"):
                choices.append(
                    _choice(
                        key=f"draw:{deck}",
                        label=f"Draw a {deck} card",
                        action=_action(DrawCard, deck=deck),
                        group="Draw",
                    )
                )
        choices.append(_choice(key="tax", label="Tax: gain 1 coin", action=_action(Tax), group="Other"))
        price = game_data().board.science_price
        if player.coins >= price:
            choices.append(
                _choice(
                    key="science",
                    label=f"Buy 1 science for {words.count(price, 'coin')}",
                    action=_action(BuyScience),
                    group="Other",
                )
            )
        choices.extend(self._move_choices(state, seat))
        return choices

    # ---- sites (cities and towns holding buildings) ---------------------------------------------
    def _sites(self, state: CityState, player: Player) -> list[tuple[str, list[str], list[str], int]]:
        """(site id, land types, buildings, base capacity) for each place the player can build."""
        data = game_data()
        sites = []
        for city in player.cities:
            sites.append(
                (
                    city.id,
                    data.lands[city.land].lands,
                    city.buildings,
                    scoring.city_capacity(state, player, city),
                )
            )
        for town_id in player.towns:
            held = town(town_id)
            if held.capacity:
                sites.append(
                    # Read only: `_apply` makes the list exist before a move can append to it.
                    (town_id, held.lands, state.town_buildings.get(town_id, []), held.capacity)
                )
        return sites

    def _site(self, state: CityState, player: Player, site_id: str) -> tuple[str, list[str], list[str], int]:
        for site in self._sites(state, player):
            if site[0] == site_id:
                return site
        raise RuleError("You have no city or town that can hold buildings there.")

    def _site_name(self, state: CityState, site_id: str) -> str:
        if site_id in game_data().towns:
            return town(site_id).name
        for player in state.players:
            for city in player.cities:
                if city.id == site_id:
                    return game_data().lands[city.land].name
        return site_id

    @staticmethod
    def _fits(base: int, buildings: list[str]) -> bool:
        return len(buildings) <= base + sum(building(uid).capacity for uid in buildings)

    def _science_cost(self, state: CityState, player: Player, uid: str, owned: set[str] | None = None) -> int:
        """Science is paid once per building name: 0 while the player owns one of the same name."""
        kind = building(uid)
        if not kind.science:
            return 0
        if owned is None:
            owned = {building(other).name for other in scoring.player_buildings(state, player)}
        return 0 if kind.name in owned else kind.science

    def _build_options(
        self, player: Player, uid: str, sites: list[tuple[str, list[str], list[str], int]], science: int
    ) -> list[tuple[str, str | None]]:
        """(site, demolished building) pairs where the player may build this card now."""
        kind = building(uid)
        if kind.coins > player.coins or science > player.science:
            return []
        options: list[tuple[str, str | None]] = []
        for site_id, lands, buildings, base in sites:
            if kind.land is not None and kind.land not in lands:
                continue
            if self._fits(base, [*buildings, uid]):
                options.append((site_id, None))
                continue
            seen: set[str] = set()
            for old in buildings:
                if old.rsplit(".", 1)[0] in seen:
                    continue
                remaining = [other for other in buildings if other != old]
                if self._fits(base, [*remaining, uid]):
                    seen.add(old.rsplit(".", 1)[0])
                    options.append((site_id, old))
        return options

    def _build_choices(self, state: CityState, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        choices: list[Choice] = []
        seen: set[tuple[str, str]] = set()
        sites = self._sites(state, player)
        owned = {building(other).name for other in scoring.player_buildings(state, player)}
        for source, uid in [("row", uid) for uid in state.row if uid] + [
            ("stored", uid) for uid in player.stored
        ]:
            kind = building(uid)
            if (source, kind.id) in seen or kind.coins > player.coins:
                continue
            seen.add((source, kind.id))
            science = self._science_cost(state, player, uid, owned)
            cost = f"{words.count(kind.coins, 'coin')}" + (f" + {science} science" if science else "")
            for site_id, old in self._build_options(player, uid, sites, science):
                where = self._site_name(state, site_id)
                choices.append(_build_choice(uid, site_id, where, old, cost, source == "stored"))
        return choices

    def _move_choices(self, state: CityState, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        cost = self._move_cost(state, player)
        if cost is None or player.coins < cost:
            return []
        choices: list[Choice] = []
        sites = self._sites(state, player)
        for source_id, _, source_buildings, source_base in sites:
            for uid in source_buildings:
                if not self._fits(source_base, [other for other in source_buildings if other != uid]):
                    continue
                for target_id, lands, buildings, base in sites:
                    if target_id == source_id:
                        continue
                    land = building(uid).land
                    if (land is None or land in lands) and self._fits(base, [*buildings, uid]):
                        choices.append(
                            _choice(
                                key=_key(f"move:{uid}:{target_id}"),
                                label=_label(
                                    f"Free: move {building(uid).name} to "
                                    f"{self._site_name(state, target_id)} ({cost} coin)"
                                ),
                                action=_action(MoveBuilding, building=uid, site=target_id),
                                group="Free actions",
                            )
                        )
        return choices

    def _move_cost(self, state: CityState, player: Player) -> int | None:
        if not state.abilities or player.nation is None:
            return None
        return game_data().nations[player.nation].move_building_cost

    # ---- card actions ------------------------------------------------------------------------------
    def _card_action(self, state: CityState, player: Player, uid: str) -> CardAction | None:
        kind = card(uid)
        action = kind.action
        if action is None or not state.abilities or player.nation is None:
            return action
        return _overridden(kind.id, player.nation)

    @staticmethod
    def _payment_sets(
        cards: list[str], skill: str, need: int, flag: str | None = None, limit: int = PAYMENT_LIMIT
    ) -> list[list[str]]:
        """Minimal sets of cards whose `skill` adds up to `need` (with one `flag` card if given)."""
        return [list(found) for found in _minimal_sets(tuple(cards), skill, need, flag, limit)]

    def _play_targets(self, state: CityState, seat: Seat, action: CardAction) -> list[dict[str, Any]]:
        player = state.players[seat]
        if action.kind == "settle":
            tokens = self._distinct_tokens(player.tokens, "city")
            return [{"land": land, "token": token} for land in state.lands for token in tokens]
        if action.kind == "district":
            tokens = self._distinct_tokens(player.tokens, "district")
            return [{"city": city.id, "token": token} for city in player.cities for token in tokens]
        return [{}]

    @staticmethod
    def _distinct_tokens(tokens: list[str], side: str) -> list[str]:
        data = game_data().board.tokens
        seen: set[tuple[int, str]] = set()
        out = []
        for token in data:
            if token.id in tokens:
                signature = (getattr(token, side), getattr(token, f"{side}_draws"))
                if signature not in seen:
                    seen.add(signature)
                    out.append(token.id)
        return out

    def _play_needs(
        self, state: CityState, action: CardAction, target: dict[str, Any]
    ) -> tuple[int, int, str | None]:
        distance = action.distance
        flag = None
        if action.kind == "settle" and target.get("land"):
            land = game_data().lands[target["land"]]
            distance += land.distance
            flag = land.requires
        return action.work, distance, flag

    def _play_choices(self, state: CityState, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        choices: list[Choice] = []
        seen: set[str] = set()
        for uid in player.hand:
            action = self._card_action(state, player, uid)
            if action is None or card(uid).id in seen or action.pay_coins > player.coins:
                continue
            seen.add(card(uid).id)
            others = [other for other in player.hand if other != uid]
            for target in self._play_targets(state, seat, action):
                work, distance, flag = self._play_needs(state, action, target)
                where = self._site_name(state, target["city"]) if "city" in target else ""
                for payers in self._payments(others, work, distance, flag):
                    choices.append(_play_choice(uid, action, tuple(payers), tuple(target.items()), where))
        return choices

    def _payments(self, cards: list[str], work: int, distance: int, flag: str | None) -> list[list[str]]:
        """Payer sets for a card action needing work and distance skills (and maybe a ship/airship)."""
        if not work and not distance and flag is None:
            return [[]]
        if not distance and flag is None:
            return self._payment_sets(cards, "work", work)
        out: list[list[str]] = []
        for work_set in self._payment_sets(cards, "work", work) if work else [[]]:
            rest = [uid for uid in cards if uid not in work_set]
            for distance_set in self._payment_sets(rest, "distance", distance, flag, limit=3):
                out.append(work_set + distance_set)
                if len(out) >= PAYMENT_LIMIT:
                    return out
        return out

    # ---- attacks -------------------------------------------------------------------------------------
    def _eyes(self, state: CityState, player: Player) -> int:
        return sum(building(uid).eyes for uid in scoring.player_buildings(state, player))

    def _attack_targets(self, state: CityState, seat: Seat) -> list[tuple[str, int, int, Seat | None]]:
        """(town, defence, distance, owner) of every town the seat may attack now."""
        data = game_data()
        player = state.players[seat]
        reach = 1 + self._eyes(state, player)
        bonus = data.board.owned_town_defense
        targets = []
        for stars in ("1", "2", "3"):
            for town_id in state.town_piles[stars][:reach]:
                targets.append((town_id, town(town_id).defense, town(town_id).distance, None))
        for town_id in state.expansion_row:
            targets.append((town_id, town(town_id).defense, town(town_id).distance, None))
        for other, rival in enumerate(state.players):
            if other != seat:
                for town_id in rival.towns:
                    targets.append((town_id, town(town_id).defense + bonus, town(town_id).distance, other))
        return targets

    def _attack_choices(self, state: CityState, seat: Seat) -> list[Choice]:
        player = state.players[seat]
        military = [uid for uid in player.hand if card(uid).attack > 0]
        if not military:
            return []
        total_attack = sum(card(uid).attack for uid in military)
        choices: list[Choice] = []
        for town_id, defense, distance, owner in self._attack_targets(state, seat):
            if defense > total_attack:
                continue
            for attackers in self._payment_sets(military, "attack", defense):
                rest = [uid for uid in player.hand if uid not in attackers]
                whose = f" from {state.players[owner].name}" if owner is not None else ""
                for payers in self._payment_sets(rest, "distance", distance, limit=3):
                    choices.append(
                        _attack_choice(town_id, defense, distance, whose, tuple(attackers), tuple(payers))
                    )
        return choices

    # ---- apply ---------------------------------------------------------------------------------------
    def _apply(self, state: CityState, seat: Seat, action: Any) -> list[Event]:
        # Towns that hold buildings get their (possibly empty) list here, in the move, never in a read:
        # legal_actions must not change the state (the snapshot must equal the replay of the log).
        for player in state.players:
            for town_id in player.towns:
                if town(town_id).capacity:
                    state.town_buildings.setdefault(town_id, [])
        handler = {
            "nation": self._apply_nation,
            "arrange": self._apply_arrange,
            "bid": self._apply_bid,
            "rebid": self._apply_rebid,
            "build": self._apply_build,
            "store": self._apply_store,
            "draw": self._apply_draw,
            "tax": self._apply_tax,
            "science": self._apply_science,
            "attack": self._apply_attack,
            "play": self._apply_play,
            "move": self._apply_move,
            "snyle": self._apply_snyle,
            "select": self._apply_select,
            "clear": self._apply_clear,
            "done": self._apply_done,
        }[action.kind]
        phases = {
            "nation": ("nation",),
            "arrange": ("arrange",),
            "bid": ("bid",),
            "rebid": ("rebid",),
            "snyle": ("snyle",),
            "select": ("purchase",),
            "clear": ("purchase",),
            "done": ("purchase",),
        }.get(action.kind, ("actions",))
        if state.phase not in phases:
            raise RuleError(
                f"That move is not possible now: the game is in the {self._phase_name(state)} step."
            )
        return handler(state, seat, action)

    @staticmethod
    def _phase_name(state: CityState) -> str:
        return {
            "nation": "nation choice",
            "arrange": "starting deck",
            "bid": "turn-order bid",
            "rebid": "Toad second bid",
            "actions": "actions",
            "snyle": "Snyle",
            "purchase": "card purchase",
            "over": "finished",
        }[state.phase]

    def _name(self, state: CityState, seat: Seat) -> str:
        return state.players[seat].name

    # nation pick and arranging -------------------------------------------------------------------------
    def _apply_nation(self, state: CityState, seat: Seat, action: PickNation) -> list[Event]:
        data = game_data()
        if action.nation not in data.nations:
            raise RuleError(f"There is no nation called {action.nation!r}.")
        if any(player.nation == action.nation for player in state.players):
            raise RuleError(f"The {data.nations[action.nation].name} are already taken.")
        state.players[seat].nation = action.nation
        events = [Event(text=f"{self._name(state, seat)} leads the {data.nations[action.nation].name}.")]
        if seat + 1 < len(state.players):
            state.current = seat + 1
        else:
            state.current = 0
            state.phase = "arrange"
            self._deal_cards(state)
        return events

    def _apply_arrange(self, state: CityState, seat: Seat, action: Arrange) -> list[Event]:
        player = state.players[seat]
        if player.done:
            raise RuleError("You have already arranged your starting decks.")
        citizen = self._ordered(player.citizen_draw, action.citizen, "citizen")
        military = self._ordered(player.military_draw, action.military, "military")
        player.citizen_draw, player.military_draw = citizen, military
        player.done = True
        drawn = self._draw(player, "citizen", game_data().board.starting_hand)
        events = [
            Event(
                text=f"{player.name} arranged the starting decks and drew {words.count(len(drawn), 'citizen card')}.",
                private={seat: f"You drew {_names(drawn)}."},
                reveals=bool(drawn),
            )
        ]
        if all(other.done for other in state.players):
            for other in state.players:
                other.done = False
            self._start_round(state, events)
        return events

    @staticmethod
    def _ordered(pile: list[str], order: list[str], deck: str) -> list[str]:
        if sorted(order) != sorted(uid.rsplit(".", 1)[0] for uid in pile):
            raise RuleError(f"Order exactly the cards of your starting {deck} deck.")
        remaining = list(pile)
        out = []
        for type_id in order:
            uid = next(uid for uid in remaining if uid.rsplit(".", 1)[0] == type_id)
            remaining.remove(uid)
            out.append(uid)
        return out

    # bids ----------------------------------------------------------------------------------------------
    def _start_round(self, state: CityState, events: list[Event]) -> None:
        state.phase = "bid"
        state.track = [None] * len(self._bid_costs(state))
        state.bid_index = 0
        state.current = state.bid_order[0]
        for player in state.players:
            player.actions_left = game_data().board.actions_per_round
        order = ", ".join(self._name(state, seat) for seat in state.bid_order)
        events.append(Event(text=f"Round {state.round} begins. Bid order: {order}."))

    def _apply_bid(self, state: CityState, seat: Seat, action: Bid) -> list[Event]:
        costs = self._bid_costs(state)
        if action.space >= len(costs) or state.track[action.space] is not None:
            raise RuleError("That space on the turn-order track is not open.")
        if action.space not in self._bid_spaces(state, seat):
            raise RuleError(f"You cannot afford a bid of {words.count(costs[action.space], 'coin')}.")
        player = state.players[seat]
        paid = min(costs[action.space], player.coins)
        player.coins -= paid
        state.track[action.space] = seat
        events = [Event(text=f"{player.name} bids {paid} (space {action.space + 1}).")]
        state.bid_index += 1
        if state.bid_index < len(state.bid_order):
            state.current = state.bid_order[state.bid_index]
            return events
        toad = self._second_bidder(state)
        if toad is not None:
            state.phase = "rebid"
            state.current = toad
            return events
        self._start_actions(state, events)
        return events

    def _second_bidder(self, state: CityState) -> Seat | None:
        if not state.abilities:
            return None
        for seat, player in enumerate(state.players):
            if player.nation and game_data().nations[player.nation].second_bid:
                return seat
        return None

    def _apply_rebid(self, state: CityState, seat: Seat, action: Rebid) -> list[Event]:
        costs = self._bid_costs(state)
        player = state.players[seat]
        now = state.track.index(seat)
        events: list[Event] = []
        if action.space is None:
            events.append(Event(text=f"{player.name} keeps the bid."))
        else:
            space = action.space
            if space >= len(costs) or state.track[space] is not None:
                raise RuleError("That space on the turn-order track is not open.")
            extra = costs[space] - costs[now]
            if extra < 0:
                raise RuleError("A second bid cannot be lower than your first bid.")
            if extra > player.coins:
                raise RuleError(
                    f"Moving there costs {words.count(extra, 'more coin')}; you have {player.coins}."
                )
            player.coins -= extra
            state.track[now] = None
            state.track[space] = seat
            events.append(Event(text=f"{player.name} bids again: space {space + 1}, paying {extra} more."))
        self._start_actions(state, events)
        return events

    def _start_actions(self, state: CityState, events: list[Event]) -> None:
        state.turn_order = [seat for seat in reversed(state.track) if seat is not None]
        state.phase = "actions"
        state.current = state.turn_order[0]
        order = ", ".join(self._name(state, seat) for seat in state.turn_order)
        events.append(Event(text=f"Turn order: {order}."))

    # the actions ---------------------------------------------------------------------------------------
    def _spend_action(self, state: CityState, seat: Seat, events: list[Event]) -> None:
        state.players[seat].actions_left -= 1
        order = state.turn_order
        start = order.index(seat)
        for step in range(1, len(order) + 1):
            candidate = order[(start + step) % len(order)]
            if state.players[candidate].actions_left > 0:
                state.current = candidate
                return
        self._end_round(state, events)

    def _apply_build(self, state: CityState, seat: Seat, action: Build) -> list[Event]:
        player = state.players[seat]
        uid = action.card
        if uid in state.row:
            source = "row"
        elif uid in player.stored:
            source = "stored"
        else:
            raise RuleError("That building is neither on the board nor stored by you.")
        kind = building(uid)
        science = self._science_cost(state, player, uid)
        if kind.coins > player.coins:
            raise RuleError(f"{kind.name} costs {words.count(kind.coins, 'coin')}; you have {player.coins}.")
        if science > player.science:
            raise RuleError(f"{kind.name} costs {science} science; you have {player.science}.")
        site_id, lands, buildings, base = self._site(state, player, action.site)
        where = self._site_name(state, site_id)
        if kind.land is not None and kind.land not in lands:
            raise RuleError(f"{kind.name} needs {kind.land.replace('_', ' ')} land; {where} has none.")
        if action.demolish is None:
            if not self._fits(base, [*buildings, uid]):
                raise RuleError(f"{where} is full: demolish a building there or build elsewhere.")
        else:
            if action.demolish not in buildings:
                raise RuleError(f"There is no such building to demolish in {where}.")
            if self._fits(base, [*buildings, uid]):
                raise RuleError(f"{where} has room: there is no need to demolish a building.")
            if not self._fits(base, [*[b for b in buildings if b != action.demolish], uid]):
                raise RuleError(f"Demolishing that building does not make room in {where}.")
        player.coins -= kind.coins
        player.science -= science
        if source == "row":
            state.row[state.row.index(uid)] = None
        else:
            player.stored.remove(uid)
        text = f"{player.name} built {kind.name} for {words.count(kind.coins, 'coin')}"
        if science:
            text += f" and {science} science"
        text += f" in {where}"
        if action.demolish:
            buildings.remove(action.demolish)
            state.discard.append(action.demolish)
            text += f", demolishing {building(action.demolish).name}"
        buildings.append(uid)
        if kind.goods:
            goods = ", ".join(words.count(n, game_data().goods[g].name) for g, n in kind.goods.items())
            text += f"; +1 income, {goods}"
        events = [Event(text=text + ".")]
        self._spend_action(state, seat, events)
        return events

    def _apply_store(self, state: CityState, seat: Seat, action: Store) -> list[Event]:
        if action.card not in state.row:
            raise RuleError("You can only store a building on offer on the board.")
        player = state.players[seat]
        state.row[state.row.index(action.card)] = None
        player.stored.append(action.card)
        events = [Event(text=f"{player.name} stored {building(action.card).name}.")]
        self._spend_action(state, seat, events)
        return events

    def _draw(self, player: Player, deck: str, count: int) -> list[str]:
        drawn = []
        for _ in range(count):
            pile: list[str] = getattr(player, f"{deck}_draw")
            if not pile:
                discard: list[str] = getattr(player, f"{deck}_discard")
                if not discard:
                    break
                pile.extend(discard)
                discard.clear()
            drawn.append(pile.pop(0))
        player.hand.extend(drawn)
        return drawn

    def _apply_draw(self, state: CityState, seat: Seat, action: DrawCard) -> list[Event]:
        player = state.players[seat]
        drawn = self._draw(player, action.deck, 1)
        if not drawn:
            raise RuleError(f"Your {action.deck} draw and discard piles are both empty.")
        events = [
            Event(
                text=f"{player.name} drew a {action.deck} card.",
                private={seat: f"You drew {_names(drawn)}."},
                reveals=bool(drawn),
            )
        ]
        self._spend_action(state, seat, events)
        return events

    def _apply_tax(self, state: CityState, seat: Seat, action: Tax) -> list[Event]:
        player = state.players[seat]
        player.coins += 1
        events = [Event(text=f"{player.name} taxed: +1 coin.")]
        self._spend_action(state, seat, events)
        return events

    def _apply_science(self, state: CityState, seat: Seat, action: BuyScience) -> list[Event]:
        player = state.players[seat]
        price = game_data().board.science_price
        if player.coins < price:
            raise RuleError(f"Science costs {words.count(price, 'coin')}; you have {player.coins}.")
        player.coins -= price
        player.science += 1
        events = [Event(text=f"{player.name} bought 1 science for {words.count(price, 'coin')}.")]
        self._spend_action(state, seat, events)
        return events

    def _check_cards(self, player: Player, uids: list[str], what: str) -> None:
        if len(set(uids)) != len(uids):
            raise RuleError("A card can be used only once in a move.")
        for uid in uids:
            if uid not in player.hand:
                raise RuleError(f"The {what} must be cards in your hand.")

    def _discard(self, player: Player, uids: list[str]) -> None:
        for uid in uids:
            player.hand.remove(uid)
            getattr(player, f"{card(uid).deck}_discard").append(uid)

    def _apply_attack(self, state: CityState, seat: Seat, action: Attack) -> list[Event]:
        player = state.players[seat]
        target = next((t for t in self._attack_targets(state, seat) if t[0] == action.town), None)
        if target is None:
            if action.town in player.towns:
                raise RuleError("You cannot attack your own town.")
            raise RuleError(
                "That town cannot be attacked now (only the top neutral towns and rivals' towns)."
            )
        town_id, defense, distance, owner = target
        self._check_cards(player, action.attackers + action.distance, "attacking cards")
        if not action.attackers:
            raise RuleError("Attack with at least one military card.")
        for uid in action.attackers:
            if card(uid).attack <= 0:
                raise RuleError(f"{card(uid).name} has no attack value.")
        for uid in action.distance:
            if card(uid).distance <= 0:
                raise RuleError(f"{card(uid).name} has no distance skill.")
        attack = sum(card(uid).attack for uid in action.attackers)
        if attack < defense:
            raise RuleError(f"{town(town_id).name} has defence {defense}; your attack is only {attack}.")
        reach = sum(card(uid).distance for uid in action.distance)
        if reach < distance:
            raise RuleError(f"{town(town_id).name} is at distance {distance}; your cards give only {reach}.")
        self._discard(player, action.attackers + action.distance)
        text = f"{player.name} conquered {town(town_id).name}"
        if owner is None:
            for pile in state.town_piles.values():
                if town_id in pile:
                    pile.remove(town_id)
            if town_id in state.expansion_row:
                state.expansion_row.remove(town_id)
                if state.expansion_deck:
                    state.expansion_row.append(state.expansion_deck.pop(0))
            left = next((index for index, uid in enumerate(state.row) if uid is not None), None)
            if left is not None:
                gone = state.row[left]
                assert gone is not None
                state.row[left] = None
                state.discard.append(gone)
                text += f"; {building(gone).name} leaves the board"
        else:
            rival = state.players[owner]
            rival.towns.remove(town_id)
            if town(town_id).choose_good:
                rival.snyle_good = None
            text += f" from {rival.name}"
            if state.town_buildings.get(town_id):
                text += " with its buildings"
        player.towns.append(town_id)
        text += f" (attack {_names(action.attackers)}"
        if action.distance:
            text += f"; distance {_names(action.distance)}"
        # Taking a town from another player is war: they lose income and goods and must see it now.
        # Conquering a neutral town is an ordinary action (like building) and stays in the edited post.
        events = [Event(text=text + ").", urgent=owner is not None)]
        self._spend_action(state, seat, events)
        return events

    def _apply_play(self, state: CityState, seat: Seat, action: Play) -> list[Event]:
        data = game_data()
        player = state.players[seat]
        if action.card not in player.hand:
            raise RuleError("You can only play a card from your hand.")
        effect = self._card_action(state, player, action.card)
        if effect is None:
            raise RuleError(f"{card(action.card).name} has no action; use it to pay skills instead.")
        self._check_cards(player, [action.card, *action.payers], "paying cards")
        target: dict[str, Any] = {}
        if effect.kind == "settle":
            if action.land not in state.lands:
                raise RuleError("Choose a land board that is still available.")
            if action.token not in player.tokens:
                raise RuleError("Choose one of your unused City/District tokens.")
            target = {"land": action.land, "token": action.token}
        elif effect.kind == "district":
            if not any(city.id == action.city for city in player.cities):
                raise RuleError("Choose one of your cities for the district.")
            if action.token not in player.tokens:
                raise RuleError("Choose one of your unused City/District tokens.")
            target = {"city": action.city, "token": action.token}
        elif action.land or action.city or action.token:
            raise RuleError(f"{card(action.card).name} needs no land, city or token.")
        work, distance, flag = self._play_needs(state, effect, target)
        work_paid = sum(card(uid).work for uid in action.payers)
        distance_paid = sum(card(uid).distance for uid in action.payers)
        for uid in action.payers:
            kind = card(uid)
            useful = (work and kind.work) or (distance and kind.distance) or (flag and getattr(kind, flag))
            if not useful:
                raise RuleError(f"{kind.name} adds no skill this action needs.")
        if work_paid < work:
            raise RuleError(
                f"{card(action.card).name} needs {words.count(work, 'work skill')}; you paid {work_paid}."
            )
        if distance_paid < distance:
            raise RuleError(
                f"That needs {words.count(distance, 'distance skill')}; you paid {distance_paid}."
            )
        if flag and not any(getattr(card(uid), flag) for uid in action.payers):
            raise RuleError(f"That land can only be reached with a {flag.capitalize()} card.")
        if effect.pay_coins > player.coins:
            raise RuleError(
                f"{card(action.card).name} needs {words.count(effect.pay_coins, 'coin')}; you have {player.coins}."
            )
        self._discard(player, [action.card, *action.payers])
        player.coins -= effect.pay_coins
        name = card(action.card).name
        text = f"{player.name} played {name}"
        if action.payers:
            text += f" (paid with {_names(action.payers)})"
        private: dict[Seat, str] = {}
        parts: list[str] = []
        if effect.pay_coins:
            parts.append(f"paid {words.count(effect.pay_coins, 'coin')}")
        if effect.kind == "settle":
            land = data.lands[target["land"]]
            state.lands.remove(land.id)
            player.tokens.remove(target["token"])
            state.city_counter += 1
            player.cities.append(
                City(id=f"{seat}-{state.city_counter + 1}", land=land.id, token=target["token"])
            )
            parts.append(f"settled {land.name}")
        elif effect.kind == "district":
            city = next(city for city in player.cities if city.id == target["city"])
            player.tokens.remove(target["token"])
            city.districts.append(target["token"])
            parts.append(f"added a district to {self._site_name(state, city.id)}")
        else:
            coins = effect.coins + effect.coins_per_town * len(player.towns)
            if coins:
                player.coins += coins
                parts.append(f"+{words.count(coins, 'coin')}")
            if effect.science:
                player.science += effect.science
                parts.append(f"+{effect.science} science")
            drawn: list[str] = []
            if effect.draw_citizen:
                drawn += self._draw(player, "citizen", effect.draw_citizen)
            if effect.draw_military:
                drawn += self._draw(player, "military", effect.draw_military)
            if effect.draw_citizen or effect.draw_military:
                parts.append(f"drew {words.count(len(drawn), 'card')}")
                private[seat] = f"You drew {_names(drawn)}."
        if parts:
            text += ": " + ", ".join(parts)
        events = [Event(text=text + ".", private=private, reveals=bool(private))]
        if not effect.free:
            self._spend_action(state, seat, events)
        return events

    def _apply_move(self, state: CityState, seat: Seat, action: MoveBuilding) -> list[Event]:
        player = state.players[seat]
        cost = self._move_cost(state, player)
        if cost is None:
            raise RuleError("Only the City-State of Arc (with nation abilities) may move buildings.")
        if player.coins < cost:
            raise RuleError(f"Moving a building costs {words.count(cost, 'coin')}; you have {player.coins}.")
        sites = self._sites(state, player)
        source = next((site for site in sites if action.building in site[2]), None)
        if source is None:
            raise RuleError("That building is not in one of your cities.")
        target = next((site for site in sites if site[0] == action.site), None)
        if target is None or target[0] == source[0]:
            raise RuleError("Move the building to another of your cities.")
        kind = building(action.building)
        if kind.land is not None and kind.land not in target[1]:
            raise RuleError(f"{kind.name} needs {kind.land.replace('_', ' ')} land there.")
        if not self._fits(target[3], [*target[2], action.building]):
            raise RuleError(f"{self._site_name(state, target[0])} has no room for it.")
        if not self._fits(source[3], [b for b in source[2] if b != action.building]):
            raise RuleError("Moving it would leave its city over capacity.")
        player.coins -= cost
        source[2].remove(action.building)
        target[2].append(action.building)
        where = self._site_name(state, target[0])
        return [Event(text=f"{player.name} moved {kind.name} to {where} for {words.count(cost, 'coin')}.")]

    # ---- End Round -------------------------------------------------------------------------------------
    def _snyle_goods(self, state: CityState, player: Player) -> list[str]:
        saved = player.snyle_good
        player.snyle_good = None
        totals = scoring.goods_totals(state, player)
        player.snyle_good = saved
        return [good for good, amount in totals.items() if amount > 0]

    def _snyle_owner(self, state: CityState) -> Seat | None:
        for seat, player in enumerate(state.players):
            if any(town(town_id).choose_good for town_id in player.towns) and self._snyle_goods(
                state, player
            ):
                return seat
        return None

    def _end_round(self, state: CityState, events: list[Event]) -> None:
        owner = self._snyle_owner(state)
        if owner is not None:
            state.phase = "snyle"
            state.current = owner
            events.append(
                Event(text=f"End of round {state.round}: {self._name(state, owner)} chooses Snyle's good.")
            )
            return
        self._finish_round(state, events)

    def _apply_snyle(self, state: CityState, seat: Seat, action: ChooseGood) -> list[Event]:
        player = state.players[seat]
        if action.good not in self._snyle_goods(state, player):
            raise RuleError("Snyle can only give a good you already own at least one of.")
        player.snyle_good = action.good
        events = [
            Event(text=f"Snyle gives {player.name} 2 {game_data().goods[action.good].name} this round.")
        ]
        self._finish_round(state, events)
        return events

    def _draw_building(self, state: CityState, events: list[Event]) -> str | None:
        if not state.deck and state.last_round and state.discard:
            state.deck = state.rng.shuffled(state.discard)
            state.discard = []
            events.append(Event(text="The discarded buildings are shuffled into a new deck.", reveals=True))
        return state.deck.pop(0) if state.deck else None

    def _refill(self, state: CityState, events: list[Event]) -> list[str]:
        """Discard the four left-most buildings, slide left, fill up; returns the Score cards drawn."""
        cards = [uid for uid in state.row if uid is not None]
        gone = cards[: game_data().board.discard_per_round]
        state.discard.extend(gone)
        cards = cards[len(gone) :]
        drawn_scores: list[str] = []
        new: list[str] = []
        while len(cards) < len(state.row):
            uid = self._draw_building(state, events)
            if uid is None:
                break
            if uid.startswith("score-"):
                state.score_area.append(uid)
                drawn_scores.append(uid)
                letter = uid[-1]
                events.append(Event(text=f"{game_data().board.score_cards[letter]} drawn.", reveals=True))
                if letter == "C":
                    state.last_round = True
                continue
            cards.append(uid)
            new.append(uid)
        state.row = cards + [None] * (len(state.row) - len(cards))
        if new:
            events.append(
                Event(text=f"New buildings: {', '.join(building(uid).name for uid in new)}.", reveals=True)
            )
        return drawn_scores

    def _finish_round(self, state: CityState, events: list[Event]) -> None:
        data = game_data()
        final = state.last_round
        drawn = [] if final else self._refill(state, events)
        state.scored_now = False
        for score in state.score_due:
            self._score(state, events, score)
            state.scorings += 1
            if data.board.score_science[score[-1]]:
                state.scored_now = True
        state.score_due = drawn
        if final or state.scorings >= 3:
            self._end_game(state, events)
            return
        bonus = scoring.first_place_bonus(state)
        parts = []
        for seat, player in enumerate(state.players):
            gained = scoring.income_track(state, player) + sum(bonus[seat].values())
            player.coins += gained
            parts.append(f"{player.name} +{gained}")
        events.append(Event(text="Income: " + ", ".join(parts) + "."))
        science_parts = []
        for player in state.players:
            gained = sum(building(uid).science_income for uid in scoring.player_buildings(state, player))
            gained += sum(town(town_id).science_income for town_id in player.towns)
            if state.scored_now:
                gained += 1
            if gained:
                player.science += gained
                science_parts.append(f"{player.name} +{gained}")
        if science_parts:
            events.append(Event(text="Science: " + ", ".join(science_parts) + "."))
        draw_parts = []
        for seat, player in enumerate(state.players):
            citizen, military = self._draw_counts(state, player)
            got_c = self._draw(player, "citizen", citizen)
            got_m = self._draw(player, "military", military)
            if got_c or got_m:
                draw_parts.append((seat, player.name, got_c, got_m))
        if draw_parts:
            events.append(
                Event(
                    text="Card draws: "
                    + ", ".join(f"{name} {len(c)} citizen, {len(m)} military" for _, name, c, m in draw_parts)
                    + ".",
                    private={seat: f"You drew {_names(c + m)}." for seat, _, c, m in draw_parts},
                    reveals=True,
                )
            )
        state.phase = "purchase"
        for player in state.players:
            player.selected = []
            player.done = not self._can_buy_any(player)
        events.append(Event(text="Choose citizen and military cards to buy, in secret."))
        if all(player.done for player in state.players):
            self._reveal_purchases(state, events)

    def _draw_counts(self, state: CityState, player: Player) -> tuple[int, int]:
        tokens = {token.id: token for token in game_data().board.tokens}
        counts = {"citizen": 0, "military": 0}
        for city in player.cities:
            counts[tokens[city.token].city_draws] += 1
            for token_id in city.districts:
                counts[tokens[token_id].district_draws] += 1
        for uid in scoring.player_buildings(state, player):
            counts["citizen"] += building(uid).draws_citizen
            counts["military"] += building(uid).draws_military
        for town_id in player.towns:
            counts["citizen"] += town(town_id).draws_citizen
            counts["military"] += town(town_id).draws_military
        return counts["citizen"], counts["military"]

    def _score(self, state: CityState, events: list[Event], score: str) -> None:
        gained = scoring.score_goods(state)
        parts = []
        for seat, player in enumerate(state.players):
            total = sum(gained[seat].values())
            player.vp += total
            parts.append(f"{player.name} +{total}")
        number = state.scorings + 1
        events.append(
            Event(
                text=f"Scoring {number} ({game_data().board.score_cards[score[-1]]}): {', '.join(parts)}.",
                urgent=True,
            )
        )

    def _end_game(self, state: CityState, events: list[Event]) -> None:
        bonuses = scoring.end_bonuses(state)
        for seat, player in enumerate(state.players):
            for name, value in bonuses[seat].items():
                player.vp += value
                events.append(Event(text=f"{player.name}: {name} {value:+d} VP."))
        state.phase = "over"
        events.append(Event(text="The game is over. " + scoring.result(state).reason, urgent=True))

    # ---- purchases -------------------------------------------------------------------------------------
    @staticmethod
    def _selected_cost(player: Player) -> tuple[int, int]:
        return sum(card(uid).coins for uid in player.selected), sum(
            card(uid).science for uid in player.selected
        )

    def _can_buy_any(self, player: Player) -> bool:
        return any(
            card(uid).coins <= player.coins and card(uid).science <= player.science
            for uid in player.unpurchased
        )

    def _apply_select(self, state: CityState, seat: Seat, action: Select) -> list[Event]:
        player = state.players[seat]
        if player.done:
            raise RuleError("You have already finished choosing.")
        if action.card not in player.unpurchased or action.card in player.selected:
            raise RuleError("Choose a card from your unpurchased cards that you have not chosen yet.")
        coins, science = self._selected_cost(player)
        kind = card(action.card)
        if coins + kind.coins > player.coins or science + kind.science > player.science:
            raise RuleError(f"You cannot pay for {kind.name} on top of your other choices.")
        player.selected.append(action.card)
        return [Event(text=f"{player.name} is choosing cards.", private={seat: f"You chose {kind.name}."})]

    def _apply_clear(self, state: CityState, seat: Seat, action: ClearSelection) -> list[Event]:
        player = state.players[seat]
        if player.done:
            raise RuleError("You have already finished choosing.")
        if not player.selected:
            raise RuleError("You have not chosen any card yet.")
        player.selected = []
        return [Event(text=f"{player.name} is choosing cards.", private={seat: "You cleared your choices."})]

    def _apply_done(self, state: CityState, seat: Seat, action: Done) -> list[Event]:
        player = state.players[seat]
        if player.done:
            raise RuleError("You have already finished choosing.")
        player.done = True
        events = [Event(text=f"{player.name} has finished choosing.")]
        if all(other.done for other in state.players):
            self._reveal_purchases(state, events)
        return events

    def _reveal_purchases(self, state: CityState, events: list[Event]) -> None:
        parts = []
        for player in state.players:
            coins, science = self._selected_cost(player)
            player.coins -= coins
            player.science -= science
            for uid in player.selected:
                player.unpurchased.remove(uid)
                player.hand.append(uid)
            if player.selected:
                parts.append(
                    f"{player.name} bought {_names(player.selected)} for {words.count(coins, 'coin')}, {science} science"
                )
            player.selected = []
            player.done = False
        # The cards bought in secret come out together (like revealed bids): urgent when anyone bought.
        events.append(
            Event(
                text=words.sentences(parts) or "Nobody bought cards.",
                reveals=bool(parts),
                urgent=bool(parts),
            )
        )
        state.round += 1
        state.bid_order = [seat for seat in state.track if seat is not None]
        self._start_round(state, events)

    # ---- views and result ------------------------------------------------------------------------------
    def _view(self, state: CityState, seat: Seat | None) -> View:
        view = build_view(self, state, seat)
        view.topic = RULES_TOPICS[state.phase]
        return view

    def _result(self, state: CityState) -> Result | None:
        if state.phase != "over":
            return None
        return scoring.result(state)

    def data(self) -> GameData:
        return game_data()

    def catalogue(self) -> list[CatalogueEntry]:
        """Every good, building, town, land, card and nation of the data, for `/card`."""
        return list(catalogue_entries())

"""What a seat (or a spectator, seat None) may see of a City of Iron game; renderers draw from this."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import Field

from rules.city_of_iron import scoring
from rules.city_of_iron.data import game_data
from rules.city_of_iron.moves.cards import nation_action
from rules.city_of_iron.moves.end_round import draw_counts
from rules.city_of_iron.scoring import building, card, town
from rules.city_of_iron.state import CityState, Player
from rules.core import Model, Seat, View, assembled

if TYPE_CHECKING:
    from rules.city_of_iron.engine import CityOfIron


class BuildingInfo(Model):
    uid: str
    name: str
    deck: str
    coins: int
    science: int
    land: str | None
    goods: dict[str, int]
    text: str = ""
    income: int = 0
    """Extra coins at every income."""
    science_income: int = 0
    draws_citizen: int = 0
    draws_military: int = 0
    capacity: int = 0
    """Extra building spaces in its city."""
    vp_bonus: int = 0
    """VP at scoring while 1st or 2nd in its good."""
    eyes: int = 0


class TownInfo(Model):
    id: str
    name: str
    stars: int
    goods: dict[str, int]
    defense: int
    distance: int
    text: str = ""
    coins: int = 0
    science_income: int = 0
    draws_citizen: int = 0
    draws_military: int = 0
    capacity: int = 0
    counts_as: int = 1
    choose_good: int = 0
    lands: list[str] = Field(default_factory=list)
    """Land types of a town that holds buildings."""


class LandInfo(Model):
    id: str
    name: str
    distance: int
    lands: list[str]
    requires: str | None


class CardInfo(Model):
    uid: str
    name: str
    deck: str
    coins: int
    science: int
    work: int
    distance: int
    attack: int
    ship: bool
    airship: bool
    action: str = ""
    free: bool = False


class CityInfo(Model):
    id: str
    land: LandInfo
    capacity: int
    districts: int
    buildings: list[BuildingInfo]


class GoodInfo(Model):
    id: str
    name: str
    vp_first: int
    vp_second: int
    coin_bonus: int
    shield: int
    amounts: list[int]
    """Per seat."""


class PlayerInfo(Model):
    name: str
    nation: str | None
    coins: int
    science: int
    vp: int
    income: int
    """The income track (without 1st-place coin bonuses)."""
    actions_left: int
    hand_size: int
    citizen_draw: int
    citizen_discard: int
    military_draw: int
    military_discard: int
    unpurchased: int
    cities: list[CityInfo]
    towns: list[TownInfo]
    stored: list[BuildingInfo]
    tokens_left: int
    distance: int
    snyle_good: str | None = None
    choosing: bool = False
    """In the purchase step: still choosing (the choices themselves are secret)."""
    income_bonus: int = 0
    """1st-place coin bonuses the goods give now, on top of the income track."""
    draws_citizen: int = 0
    """Citizen cards drawn at every End Round (cities, districts, buildings, towns)."""
    draws_military: int = 0


class ScoreLine(Model):
    """One seat's final score, by source (public once the game is over)."""

    seat: Seat
    place: int
    vp: int
    coins: int
    goods: int
    scorings: int
    """VP from all Score cards together."""
    last_scoring: dict[str, int]
    """The final Score card's VP by source: good names, 'shields', '+3 buildings'."""
    bonuses: dict[str, int]
    """End-game bonuses and the stored-building penalty (negative)."""


class FinalInfo(Model):
    reason: str
    lines: list[ScoreLine]
    """Best place first."""


class PrivateInfo(Model):
    hand: list[CardInfo]
    citizen_draw: list[CardInfo]
    """Top first: players may look through their own piles."""
    citizen_discard: list[CardInfo]
    military_draw: list[CardInfo]
    military_discard: list[CardInfo]
    unpurchased: list[CardInfo]
    selected: list[CardInfo]


class CityOfIronView(View):
    phase: str
    round: int
    row: list[BuildingInfo | None]
    deck_count: int
    cards_to_next_score: int | None
    """Building cards before the next Score card (public: the decks' sizes are known)."""
    discard_count: int
    scorings: int
    score_due: bool
    last_round: bool
    town_piles: dict[str, list[TownInfo]]
    """Players may look through the neutral town piles (top first)."""
    expansion_row: list[TownInfo]
    expansion_deck_count: int
    lands: list[LandInfo]
    goods: list[GoodInfo]
    bid_costs: list[int]
    bid_order: list[Seat]
    track: list[Seat | None]
    turn_order: list[Seat]
    current: Seat | None
    seats: list[PlayerInfo]
    options: dict[str, str | bool]
    private: PrivateInfo | None = None
    nations: dict[str, str] = Field(default_factory=dict)
    owned_town_defense: int = 0
    """Defence a town gains once a player owns it (its conquered side)."""
    final: FinalInfo | None = None
    """The final scores and their breakdown, once the game is over."""


M = TypeVar("M", bound=Model)


@cache
def _plan(model: type[Model]) -> tuple[dict[str, Any], tuple[tuple[str, Any], ...]]:
    """A view model's fields in declaration order with their defaults (a required field's is a
    placeholder every caller replaces), and the fields whose default is made fresh by a factory."""
    template = {name: field.default for name, field in model.model_fields.items()}
    factories = tuple(
        (name, field.default_factory)
        for name, field in model.model_fields.items()
        if field.default_factory is not None
    )
    return template, factories


def _made(model: type[M], **fields: Any) -> M:
    """A view model built without validation: the search builds a whole view per iteration (several
    per decision), and validating the whole nested view was a large part of that time. Every value
    given must already have the field's type and be owned by the view (copy the state's lists), and
    every required field must be given; the fields are stored in declaration order with the defaults
    filled in, as validation would, so the model, its JSON and its fields set are the same."""
    template, factories = _plan(model)
    values = {**template, **fields}
    for name, factory in factories:
        if name not in fields:
            values[name] = factory()
    return assembled(model, values, set(fields))


@cache
def _building(uid: str) -> BuildingInfo:
    kind = building(uid)
    return BuildingInfo(
        uid=uid,
        name=kind.name,
        deck=kind.deck,
        coins=kind.coins,
        science=kind.science,
        land=kind.land,
        goods=kind.goods,
        text=kind.text,
        income=kind.income,
        science_income=kind.science_income,
        draws_citizen=kind.draws_citizen,
        draws_military=kind.draws_military,
        capacity=kind.capacity,
        vp_bonus=kind.vp_bonus,
        eyes=kind.eyes,
    )


@cache
def _town(town_id: str) -> TownInfo:
    kind = town(town_id)
    return TownInfo(
        id=town_id,
        name=kind.name,
        stars=kind.stars,
        goods=kind.goods,
        defense=kind.defense,
        distance=kind.distance,
        text=kind.text,
        coins=kind.coins,
        science_income=kind.science_income,
        draws_citizen=kind.draws_citizen,
        draws_military=kind.draws_military,
        capacity=kind.capacity,
        counts_as=kind.counts_as,
        choose_good=kind.choose_good,
        lands=list(kind.lands),
    )


@cache
def _land(land_id: str) -> LandInfo:
    land = game_data().lands[land_id]
    return LandInfo(
        id=land.id, name=land.name, distance=land.distance, lands=list(land.lands), requires=land.requires
    )


def _card(state: CityState, player: Player, uid: str) -> CardInfo:
    # The action depends only on the nation, and only with abilities on (`card_action`).
    return _card_for(uid, player.nation if state.abilities else None)


@cache
def _card_for(uid: str, nation: str | None) -> CardInfo:
    """A card as a seat with this nation (None: abilities off or no nation yet) sees it: one lookup per
    card in a view, where the search builds several views per decision."""
    action = nation_action(uid, nation)
    return _card_info(uid, action.text if action else "", bool(action and action.free))


@cache
def _card_info(uid: str, action: str, free: bool) -> CardInfo:
    kind = card(uid)
    return CardInfo(
        uid=uid,
        name=kind.name,
        deck=kind.deck,
        coins=kind.coins,
        science=kind.science,
        work=kind.work,
        distance=kind.distance,
        attack=kind.attack,
        ship=kind.ship,
        airship=kind.airship,
        action=action,
        free=free,
    )


def _headline(state: CityState) -> str:
    who = state.players[state.current].name if state.phase not in ("arrange", "purchase", "over") else ""
    text = {
        "nation": f"Choosing nations - {who} to pick",
        "arrange": "Arranging starting decks",
        "bid": f"Bidding - {who} to bid",
        "rebid": f"Bidding - {who} may bid again",
        "actions": f"Actions - {who} chooses a discard order (first down, first drawn again)"
        if state.ordering
        else f"Actions - {who} to act",
        "snyle": f"End Round - {who} chooses Snyle's good",
        "purchase": "End Round - buying cards in secret",
        "over": "Game over",
    }[state.phase]
    return f"Round {state.round} - {text}"


def _final(state: CityState) -> FinalInfo:
    """The breakdown of the final scores: nothing changes between the last scoring and the game's end,
    so the final state gives the last Score card's VP and the end-game bonuses exactly."""
    outcome = scoring.result(state)
    last = scoring.score_goods(state)
    bonuses = scoring.end_bonuses(state)
    names = {good.id: good.name for good in game_data().goods.values()}
    lines = []
    for place, seats in enumerate(outcome.ranking, start=1):
        for seat in seats:
            player = state.players[seat]
            lines.append(
                ScoreLine(
                    seat=seat,
                    place=place,
                    vp=player.vp,
                    coins=player.coins,
                    goods=scoring.total_goods(state, player),
                    scorings=player.vp - sum(bonuses[seat].values()),
                    last_scoring={names.get(key, key): value for key, value in last[seat].items()},
                    bonuses=bonuses[seat],
                )
            )
    return FinalInfo(reason=outcome.reason, lines=lines)


SCORE_CARDS = tuple(f"score-{letter}" for letter in game_data().board.score_cards)
"""The Score cards' instances in the building deck ("score-A"...), the only ones named "score-"."""


def _score_positions(deck: list[str]) -> list[int]:
    """Where the Score cards lie in the deck: found by C-level search (`in`, `index`) rather than by
    looking at each of the deck's cards, for a view built many times per decision."""
    return [deck.index(uid) for uid in SCORE_CARDS if uid in deck]


@lru_cache(maxsize=4096)
def _buildings_row(row: tuple[str | None, ...]) -> tuple[BuildingInfo | None, ...]:
    """The building row as the view shows it; the row changes a few times a round, so most views
    find it built already (each view gets its own list of the shared infos)."""
    return tuple(_building(uid) if uid else None for uid in row)


@lru_cache(maxsize=4096)
def _towns(pile: tuple[str, ...]) -> tuple[TownInfo, ...]:
    """A town pile as the view shows it (like `_buildings_row`)."""
    return tuple(_town(town_id) for town_id in pile)


def build_view(game: CityOfIron, state: CityState, seat: Seat | None) -> CityOfIronView:
    data = game_data()
    totals = [scoring.goods_totals(state, player) for player in state.players]
    goods = [
        _made(
            GoodInfo,
            id=good.id,
            name=good.name,
            vp_first=good.vp_first,
            vp_second=good.vp_second,
            coin_bonus=good.coin_bonus,
            shield=good.shield,
            amounts=[seat_totals[good.id] for seat_totals in totals],
        )
        for good in data.goods.values()
    ]
    seats = []
    bonus = scoring.first_place_bonus(state, totals)
    for seat_index, player in enumerate(state.players):
        draws = draw_counts(state, player)
        cities = []
        for city in player.cities:
            base = scoring.city_capacity(state, player, city)
            capacity = base + sum(building(uid).capacity for uid in city.buildings)
            cities.append(
                _made(
                    CityInfo,
                    id=city.id,
                    land=_land(city.land),
                    capacity=capacity,
                    districts=len(city.districts),
                    buildings=[_building(uid) for uid in city.buildings],
                )
            )
        for town_id in player.towns:
            held = state.town_buildings.get(town_id)
            if town(town_id).capacity:
                lands = town(town_id).lands
                cities.append(
                    _made(
                        CityInfo,
                        id=town_id,
                        land=_made(
                            LandInfo,
                            id=town_id,
                            name=town(town_id).name,
                            distance=0,
                            lands=list(lands),
                            requires=None,
                        ),
                        capacity=town(town_id).capacity + sum(building(uid).capacity for uid in held or ()),
                        districts=0,
                        buildings=[_building(uid) for uid in held or ()],
                    )
                )
        seats.append(
            _made(
                PlayerInfo,
                name=player.name,
                nation=data.nations[player.nation].name if player.nation else None,
                coins=player.coins,
                science=player.science,
                vp=player.vp,
                income=scoring.income_track(state, player),
                actions_left=player.actions_left,
                hand_size=len(player.hand),
                citizen_draw=len(player.citizen_draw),
                citizen_discard=len(player.citizen_discard),
                military_draw=len(player.military_draw),
                military_discard=len(player.military_discard),
                unpurchased=len(player.unpurchased),
                cities=cities,
                towns=[_town(town_id) for town_id in player.towns],
                stored=[_building(uid) for uid in player.stored],
                tokens_left=len(player.tokens),
                distance=scoring.distance(player),
                snyle_good=player.snyle_good,
                choosing=state.phase == "purchase" and not player.done,
                income_bonus=sum(bonus[seat_index].values()),
                draws_citizen=draws[0],
                draws_military=draws[1],
            )
        )
    scores = _score_positions(state.deck)
    to_next = min(scores, default=None)
    private = None
    if seat is not None:
        player = state.players[seat]

        def cards(uids: list[str]) -> list[CardInfo]:
            return [_card(state, player, uid) for uid in uids]

        private = _made(
            PrivateInfo,
            hand=cards(player.hand),
            citizen_draw=cards(player.citizen_draw),
            citizen_discard=cards(player.citizen_discard),
            military_draw=cards(player.military_draw),
            military_discard=cards(player.military_discard),
            unpurchased=cards(player.unpurchased),
            selected=cards(player.selected),
        )
    sequential = state.phase in ("nation", "bid", "rebid", "actions", "snyle")
    return _made(
        CityOfIronView,
        game=game.info.id,
        seat=seat,
        players=[player.name for player in state.players],
        to_act=sorted(game.to_act(state)),
        headline=_headline(state),
        finished=state.phase == "over",
        phase=state.phase,
        round=state.round,
        row=list(_buildings_row(tuple(state.row))),
        deck_count=len(state.deck) - len(scores),
        cards_to_next_score=to_next,
        discard_count=len(state.discard),
        scorings=state.scorings,
        score_due=bool(state.score_due),
        last_round=state.last_round,
        town_piles={stars: list(_towns(tuple(pile))) for stars, pile in state.town_piles.items()},
        expansion_row=[_town(town_id) for town_id in state.expansion_row],
        expansion_deck_count=len(state.expansion_deck),
        lands=[_land(land_id) for land_id in state.lands],
        goods=goods,
        bid_costs=list(data.board.bid_costs[len(state.players)]),
        bid_order=list(state.bid_order),
        track=list(state.track),
        turn_order=list(state.turn_order),
        current=state.current if sequential else None,
        seats=seats,
        options={
            "nations": state.nations_mode,
            "abilities": state.abilities,
            "expansion": state.expansion,
            "stored_penalty": state.stored_penalty,
        },
        private=private,
        nations={nation.id: nation.ability for nation in data.nations.values()} if state.abilities else {},
        owned_town_defense=data.board.owned_town_defense,
        final=_final(state) if state.phase == "over" else None,
    )

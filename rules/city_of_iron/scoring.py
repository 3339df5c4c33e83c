"""Goods, income, scoring and the end of the game: read-only helpers over the state."""

from __future__ import annotations

from functools import cache

from rules import words
from rules.city_of_iron.data import BuildingType, EndBonus, PlayerCard, Token, TownType, rules_data
from rules.city_of_iron.state import City, CityState, Player
from rules.core import Result, Seat


@cache
def building(uid: str) -> BuildingType:
    return rules_data().buildings[uid.rsplit(".", 1)[0]]


@cache
def card(uid: str) -> PlayerCard:
    return rules_data().cards[uid.rsplit(".", 1)[0]]


def town(uid: str) -> TownType:
    return rules_data().towns[uid]


@cache
def tokens() -> dict[str, Token]:
    """The City/District tokens by id, read-only: every city's capacity and draws look them up."""
    return {token.id: token for token in rules_data().board.tokens}


def player_buildings(state: CityState, player: Player) -> list[str]:
    """Every building the player owns: in cities and in towns that hold buildings."""
    owned = [uid for city in player.cities for uid in city.buildings]
    for town_id in player.towns:
        owned.extend(state.town_buildings.get(town_id, ()))
    return owned


def town_goods(player: Player, town_id: str) -> dict[str, int]:
    data = town(town_id)
    if data.choose_good:
        return {player.snyle_good: data.choose_good} if player.snyle_good else {}
    return data.goods


def goods_totals(state: CityState, player: Player) -> dict[str, int]:
    totals = dict.fromkeys(rules_data().goods, 0)
    for uid in player_buildings(state, player):
        for good, amount in building(uid).goods.items():
            totals[good] += amount
    for town_id in player.towns:
        for good, amount in town_goods(player, town_id).items():
            totals[good] += amount
    return totals


def goods_cards(state: CityState, player: Player) -> int:
    """Cards that produce goods (buildings and towns): 1 income coin each."""
    count = sum(1 for uid in player_buildings(state, player) if building(uid).goods)
    return count + sum(1 for town_id in player.towns if town_goods(player, town_id))


def income_track(state: CityState, player: Player) -> int:
    """The Nation Board's income track: base, goods cards and fixed extra coins (no 1st-place bonuses)."""
    extra = sum(building(uid).income for uid in player_buildings(state, player))
    extra += sum(town(town_id).coins for town_id in player.towns)
    return rules_data().board.base_income + goods_cards(state, player) + extra


def places(all_totals: list[dict[str, int]], good: str) -> tuple[int, int]:
    """Amounts of 1st and 2nd place for a good (0 when nobody holds that place)."""
    amounts = sorted({totals[good] for totals in all_totals if totals[good] > 0}, reverse=True)
    first = amounts[0] if amounts else 0
    second = amounts[1] if len(amounts) > 1 else 0
    return first, second


def first_place_bonus(state: CityState, totals: list[dict[str, int]] | None = None) -> list[dict[str, int]]:
    """Per seat: the coin bonus of each good it leads (ties all collect). `totals`: every seat's
    `goods_totals` when the caller has them already (a view needs both)."""
    if totals is None:
        totals = [goods_totals(state, player) for player in state.players]
    bonus: list[dict[str, int]] = [{} for _ in state.players]
    for good in rules_data().goods.values():
        first, _ = places(totals, good.id)
        if first:
            for seat, seat_totals in enumerate(totals):
                if seat_totals[good.id] == first and good.coin_bonus:
                    bonus[seat][good.id] = good.coin_bonus
    return bonus


def income(state: CityState, seat: Seat) -> int:
    """Coins collected at End Round: income track plus 1st-place coin bonuses."""
    return income_track(state, state.players[seat]) + sum(first_place_bonus(state)[seat].values())


def score_goods(state: CityState) -> list[dict[str, int]]:
    """VP each seat scores at a Score card, by source (good id, 'shields', '+3 buildings')."""
    data = rules_data()
    totals = [goods_totals(state, player) for player in state.players]
    gained: list[dict[str, int]] = [{} for _ in state.players]
    place_of: list[dict[str, int]] = [{} for _ in state.players]
    for good in data.goods.values():
        first, second = places(totals, good.id)
        for seat, seat_totals in enumerate(totals):
            amount = seat_totals[good.id]
            if not amount:
                continue
            if amount == first:
                gained[seat][good.id] = good.vp_first
                place_of[seat][good.id] = 1
            elif amount == second:
                gained[seat][good.id] = good.vp_second
                place_of[seat][good.id] = 2
            if amount >= good.shield:
                gained[seat]["shields"] = gained[seat].get("shields", 0) + 1
    for seat, player in enumerate(state.players):
        for uid in player_buildings(state, player):
            kind = building(uid)
            if kind.vp_bonus and any(good in place_of[seat] for good in kind.goods):
                gained[seat]["+3 buildings"] = gained[seat].get("+3 buildings", 0) + kind.vp_bonus
    return gained


def distance(player: Player) -> int:
    lands = rules_data().lands
    return sum(lands[city.land].distance for city in player.cities)


def owned_cards(player: Player) -> int:
    """The "most cards" measure: the rulebook counts owned cards "in hand or undrawn", so the discard
    piles (cards already spent this cycle) and the unpurchased cards are left out."""
    return len(player.hand) + len(player.citizen_draw) + len(player.military_draw)


def town_count(player: Player) -> int:
    return sum(town(town_id).counts_as for town_id in player.towns)


def end_bonuses(state: CityState) -> list[dict[str, int]]:
    """The end-game bonuses and the storing penalty; a tie for a bonus gives it to nobody."""
    data = rules_data()
    values = data.board.end_bonus
    measures: dict[EndBonus, list[int]] = {
        "coins": [player.coins for player in state.players],
        "distance": [distance(player) for player in state.players],
        "one_good": [max(goods_totals(state, player).values()) for player in state.players],
        "cards": [owned_cards(player) for player in state.players],
        "towns": [town_count(player) for player in state.players],
    }
    gained: list[dict[str, int]] = [{} for _ in state.players]
    for name, amounts in measures.items():
        best = max(amounts)
        if best > 0 and amounts.count(best) == 1:
            gained[amounts.index(best)][f"most {name.replace('_', ' ')}"] = values[name]
    for seat, player in enumerate(state.players):
        stored = len(player.stored)
        penalty = stored if state.stored_penalty == "per_card" else stored // 2
        if penalty:
            gained[seat]["stored buildings"] = -penalty
    return gained


def total_goods(state: CityState, player: Player) -> int:
    return sum(goods_totals(state, player).values())


def result(state: CityState) -> Result:
    players = state.players
    keys = {seat: (p.vp, p.coins, total_goods(state, p)) for seat, p in enumerate(players)}
    order = sorted(keys, key=lambda seat: keys[seat], reverse=True)
    ranking: list[list[Seat]] = []
    for seat in order:
        if ranking and keys[ranking[-1][0]] == keys[seat]:
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    top = ranking[0]
    names = words.listed(players[seat].name for seat in top)
    best = keys[top[0]]
    coins, goods = words.count(best[1], "coin"), words.count(best[2], "good")
    if len(top) > 1:
        reason = f"{names} share the win with {best[0]} VP, {coins} and {goods} each"
    else:
        reason = f"{names} wins with {best[0]} VP"
        rivals = [seat for seat in order[1:] if keys[seat][0] == best[0]]
        if rivals:
            rival_names = words.listed(players[seat].name for seat in rivals)
            if all(keys[seat][1] < best[1] for seat in rivals):
                most = max(keys[seat][1] for seat in rivals)
                reason += f"; tied on VP with {rival_names}, more coins ({best[1]} to {most})"
            else:
                most = max(keys[seat][2] for seat in rivals)
                reason += f"; tied on VP and coins with {rival_names}, more goods ({best[2]} to {most})"
        elif len(order) > 1:
            second = order[1]
            reason += f" to {players[second].name}'s {keys[second][0]}"
    breakdown = {
        seat: {"vp": p.vp, "coins": p.coins, "goods": total_goods(state, p)} for seat, p in enumerate(players)
    }
    return Result(
        scores={seat: p.vp for seat, p in enumerate(players)},
        ranking=ranking,
        reason=reason + ".",
        breakdown=breakdown,
    )


def city_capacity(state: CityState, player: Player, city: City) -> int:
    by_id = tokens()
    capacity = by_id[city.token].city
    bonus = rules_data().nations[player.nation].district_bonus if (state.abilities and player.nation) else {}
    for token_id in city.districts:
        token = by_id[token_id]
        capacity += token.district + bonus.get(token.district_draws, 0)
    return capacity

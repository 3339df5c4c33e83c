"""Citizen and military cards: their actions (after a nation's changes), playing one with its paying
cards, settling lands, adding districts, and drawing cards from a player's piles."""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from rules import words
from rules.city_of_iron.choices import action_of, card_names, fit_key, kind_of, payments
from rules.city_of_iron.data import CardAction, rules_data
from rules.city_of_iron.moves.build import site_name
from rules.city_of_iron.moves.discard import discard_cards, order_words, ordered
from rules.city_of_iron.scoring import card
from rules.city_of_iron.state import City, CityState, Play, Player
from rules.core import Choice, Event, RuleError, Seat, built_choice


@lru_cache(maxsize=256)
def _overridden(card_id: str, nation: str) -> CardAction | None:
    """A card's action with its nation's changes (Cresarians: the Scholar pays 0 coins)."""
    action = rules_data().cards[card_id].action
    # The data file names int fields of CardAction (checked when it loads), which mypy cannot see.
    override: dict[str, Any] | None = rules_data().nations[nation].action_overrides.get(card_id)
    return dataclasses.replace(action, **override) if (action and override) else action


def card_action(state: CityState, player: Player, uid: str) -> CardAction | None:
    return nation_action(uid, player.nation if state.abilities else None)


@lru_cache(maxsize=1024)
def nation_action(uid: str, nation: str | None) -> CardAction | None:
    """A card's action for a seat of this nation (None: abilities off or no nation yet): one lookup
    per card, shared by the moves and the views the search builds many times per decision."""
    action = card(uid).action
    return action if (action is None or nation is None) else _overridden(card(uid).id, nation)


def _play_targets(state: CityState, seat: Seat, action: CardAction) -> list[dict[str, Any]]:
    player = state.players[seat]
    if action.kind == "settle":
        tokens = _distinct_tokens(player.tokens, "city")
        return [{"land": land, "token": token} for land in state.lands for token in tokens]
    if action.kind == "district":
        tokens = _distinct_tokens(player.tokens, "district")
        return [{"city": city.id, "token": token} for city in player.cities for token in tokens]
    return [{}]


def _distinct_tokens(tokens: list[str], side: str) -> list[str]:
    data = rules_data().board.tokens
    seen: set[tuple[int, str]] = set()
    out = []
    for token in data:
        if token.id in tokens:
            signature = (getattr(token, side), getattr(token, f"{side}_draws"))
            if signature not in seen:
                seen.add(signature)
                out.append(token.id)
    return out


def play_needs(action: CardAction, target: dict[str, Any]) -> tuple[int, int, str | None]:
    """Work, distance and the ship/airship a card action needs on this target (a land adds its own)."""
    distance = action.distance
    flag = None
    if action.kind == "settle" and target.get("land"):
        land = rules_data().lands[target["land"]]
        distance += land.distance
        flag = land.requires
    return action.work, distance, flag


def _unmarked(text: str) -> str:
    """A card's action text without the 'Free action: ' its data starts with (the label says it once)."""
    head, sep, rest = text.partition(":")
    return rest.strip() if sep and head.strip().lower() == "free action" else text


@lru_cache(maxsize=8192)
def _play_words(
    kind_id: str, action: CardAction, payers: tuple[str, ...], target: tuple[tuple[str, str], ...], where: str
) -> tuple[str, str]:
    """A play's label and the end of its key, by card types (the paying cards as types): every copy
    of a card, and every hand the search samples, shares them."""
    data = rules_data()
    chosen = dict(target)
    text = card(kind_id).name + (" (free action)" if action.free else "")
    key = ""
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
        text += f": {_unmarked(action.text)}"
    if payers:
        text = f"{words.clause(text)}; pay with {card_names(payers)}"
        key += ":" + ".".join(payers)
    return key, text


@lru_cache(maxsize=8192)
def _play_choice(
    uid: str, nation: str | None, payers: tuple[str, ...], target: tuple[tuple[str, str], ...], where: str
) -> Choice:
    """One play, keyed by the card and the nation whose action it is (plain strings hash faster than
    the action model)."""
    action = nation_action(uid, nation)
    assert action is not None
    key, label = _play_words(kind_of(uid), action, tuple(map(kind_of, payers)), target, where)
    return built_choice(
        key=fit_key(f"play:{uid}{key}"),
        label=label,
        action=action_of(Play, card=uid, payers=list(payers), **dict(target)),
        group="Free actions" if action.free else "Card actions",
    )


def play_choices(state: CityState, seat: Seat) -> list[Choice]:
    player = state.players[seat]
    nation = player.nation if state.abilities else None
    hand = tuple(player.hand)
    choices: list[Choice] = []
    seen: set[str] = set()
    for uid in hand:
        action = nation_action(uid, nation)
        kind_id = kind_of(uid)
        if action is None or kind_id in seen or action.pay_coins > player.coins:
            continue
        seen.add(kind_id)
        if action.kind not in ("settle", "district"):
            # An action needing no skills is paid by no cards, whatever the hand.
            choices += _gain_choices(uid, nation, hand if (action.work or action.distance) else ())
            continue
        others = tuple(other for other in hand if other != uid)
        for target in _play_targets(state, seat, action):
            work, distance, flag = play_needs(action, target)
            where = site_name(state, target["city"]) if "city" in target else ""
            for payers in payments(others, work, distance, flag):
                choices.append(_play_choice(uid, nation, payers, tuple(target.items()), where))
    return choices


@lru_cache(maxsize=8192)
def _gain_choices(uid: str, nation: str | None, hand: tuple[str, ...]) -> tuple[Choice, ...]:
    """The choices of a card whose action has no target (not a settle or district): they depend only
    on the card, the nation and the hand paying for it, so the search, which sees the same hand in
    every world of a decision, builds them once."""
    action = nation_action(uid, nation)
    assert action is not None
    others = tuple(other for other in hand if other != uid)
    work, distance, flag = play_needs(action, {})
    return tuple(
        _play_choice(uid, nation, payers, (), "") for payers in payments(others, work, distance, flag)
    )


def check_cards(player: Player, uids: list[str], what: str) -> None:
    if len(set(uids)) != len(uids):
        raise RuleError("A card can be used only once in a move.")
    for uid in uids:
        if uid not in player.hand:
            raise RuleError(f"The {what} must be cards in your hand.")


def _play_target(state: CityState, player: Player, action: Play, effect: CardAction) -> dict[str, Any]:
    """The land and token a settle needs, or the city and token a district needs; nothing otherwise."""
    if effect.kind == "settle":
        if action.land not in state.lands:
            raise RuleError("Choose a land board that is still available.")
        if action.token not in player.tokens:
            raise RuleError("Choose one of your unused City/District tokens.")
        return {"land": action.land, "token": action.token}
    if effect.kind == "district":
        if not any(city.id == action.city for city in player.cities):
            raise RuleError("Choose one of your cities for the district.")
        if action.token not in player.tokens:
            raise RuleError("Choose one of your unused City/District tokens.")
        return {"city": action.city, "token": action.token}
    if action.land or action.city or action.token:
        raise RuleError(f"{card(action.card).name} needs no land, city or token.")
    return {}


def _check_payment(state: CityState, action: Play, effect: CardAction, target: dict[str, Any]) -> None:
    """The paying cards each add a skill the action needs, and together pay all of it."""
    work, distance, flag = play_needs(effect, target)
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
        raise RuleError(f"That needs {words.count(distance, 'distance skill')}; you paid {distance_paid}.")
    if flag and not any(getattr(card(uid), flag) for uid in action.payers):
        raise RuleError(f"That land can only be reached with a {flag.capitalize()} card.")


def _settle(state: CityState, seat: Seat, target: dict[str, Any]) -> str:
    player = state.players[seat]
    land = rules_data().lands[target["land"]]
    state.lands.remove(land.id)
    player.tokens.remove(target["token"])
    state.city_counter += 1
    player.cities.append(City(id=f"{seat}-{state.city_counter + 1}", land=land.id, token=target["token"]))
    return f"settled {land.name}"


def _district(state: CityState, seat: Seat, target: dict[str, Any]) -> str:
    player = state.players[seat]
    city = next(city for city in player.cities if city.id == target["city"])
    player.tokens.remove(target["token"])
    city.districts.append(target["token"])
    return f"added a district to {site_name(state, city.id)}"


def _gain(
    state: CityState, seat: Seat, effect: CardAction, parts: list[str], private: dict[Seat, str]
) -> None:
    """A gain action's coins, science and cards (what the seat drew told to it alone)."""
    player = state.players[seat]
    coins = effect.coins + effect.coins_per_town * len(player.towns)
    if coins:
        player.coins += coins
        parts.append(f"+{words.count(coins, 'coin')}")
    if effect.science:
        player.science += effect.science
        parts.append(f"+{effect.science} science")
    drawn: list[str] = []
    if effect.draw_citizen:
        drawn += draw_cards(player, "citizen", effect.draw_citizen)
    if effect.draw_military:
        drawn += draw_cards(player, "military", effect.draw_military)
    if effect.draw_citizen or effect.draw_military:
        parts.append(f"drew {words.count(len(drawn), 'card')}")
        private[seat] = f"You drew {card_names(drawn)}."


def play_effect(state: CityState, seat: Seat, action: Play) -> CardAction:
    """The action of the card a Play plays (after its nation's changes); RuleError when it has none."""
    player = state.players[seat]
    if action.card not in player.hand:
        raise RuleError("You can only play a card from your hand.")
    effect = card_action(state, player, action.card)
    if effect is None:
        raise RuleError(f"{card(action.card).name} has no action; use it to pay skills instead.")
    return effect


def apply_play(state: CityState, seat: Seat, action: Play) -> list[Event]:
    player = state.players[seat]
    effect = play_effect(state, seat, action)
    check_cards(player, [action.card, *action.payers], "paying cards")
    order = ordered([action.card, *action.payers], action.discard_order)
    target = _play_target(state, player, action, effect)
    _check_payment(state, action, effect, target)
    if effect.pay_coins > player.coins:
        raise RuleError(
            f"{card(action.card).name} needs {words.count(effect.pay_coins, 'coin')}; you have {player.coins}."
        )
    discard_cards(player, order)
    player.coins -= effect.pay_coins
    text = f"{player.name} played {card(action.card).name}"
    if action.payers:
        text += f" (paid with {card_names(action.payers)})"
    private: dict[Seat, str] = {}
    parts: list[str] = []
    if effect.pay_coins:
        parts.append(f"paid {words.count(effect.pay_coins, 'coin')}")
    if effect.kind == "settle":
        parts.append(_settle(state, seat, target))
    elif effect.kind == "district":
        parts.append(_district(state, seat, target))
    else:
        _gain(state, seat, effect, parts, private)
    if parts:
        text += ": " + ", ".join(parts)
    text += "."
    if action.discard_order is not None and order_words(order):
        text += f" Discard order: {order_words(order)}."
    return [Event(text=text, private=private, reveals=bool(private))]


def draw_cards(player: Player, deck: str, count: int) -> list[str]:
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

"""Attacks: which towns a seat can reach, the attacking and distance cards, and conquering a neutral
or a rival's town."""

from __future__ import annotations

from functools import lru_cache

from rules.city_of_iron import scoring
from rules.city_of_iron.choices import PAYMENT_LIMIT, action_of, card_names, fit_key, kind_of, minimal_sets
from rules.city_of_iron.data import rules_data
from rules.city_of_iron.moves.cards import check_cards
from rules.city_of_iron.moves.discard import discard_cards, order_words, ordered
from rules.city_of_iron.scoring import building, card, town
from rules.city_of_iron.state import Attack, CityState, Player
from rules.core import Choice, Event, RuleError, Seat, built_choice


def _eyes(state: CityState, player: Player) -> int:
    return sum(building(uid).eyes for uid in scoring.player_buildings(state, player))


def attack_targets(state: CityState, seat: Seat) -> list[tuple[str, int, int, Seat | None]]:
    """(town, defence, distance, owner) of every town the seat may attack now."""
    data = rules_data()
    towns = data.towns
    player = state.players[seat]
    reach = 1 + _eyes(state, player)
    targets: list[tuple[str, int, int, Seat | None]] = []
    for stars in ("1", "2", "3"):
        for town_id in state.town_piles[stars][:reach]:
            kind = towns[town_id]
            targets.append((town_id, kind.defense, kind.distance, None))
    for town_id in state.expansion_row:
        kind = towns[town_id]
        targets.append((town_id, kind.defense, kind.distance, None))
    bonus = data.board.owned_town_defense
    for other, rival in enumerate(state.players):
        if other != seat:
            for town_id in rival.towns:
                kind = towns[town_id]
                targets.append((town_id, kind.defense + bonus, kind.distance, other))
    return targets


@lru_cache(maxsize=8192)
def _attack_words(
    town_id: str, defense: int, distance: int, whose: str, attackers: tuple[str, ...], payers: tuple[str, ...]
) -> tuple[str, str]:
    """An attack's key and label, by card types: every copy of a card (and every sampled hand of the
    search) shares them, so only the action is built per hand."""
    text = f"Attack {town(town_id).name}{whose} (D{defense}, dist {distance}) with {card_names(attackers)}"
    key = f"attack:{town_id}:" + ".".join(attackers)
    if payers:
        text += f"; distance {card_names(payers)}"
        key += ":" + ".".join(payers)
    return fit_key(key), text


@lru_cache(maxsize=8192)
def _attack_choice(
    town_id: str, defense: int, distance: int, whose: str, attackers: tuple[str, ...], payers: tuple[str, ...]
) -> Choice:
    key, label = _attack_words(
        town_id, defense, distance, whose, tuple(map(kind_of, attackers)), tuple(map(kind_of, payers))
    )
    return built_choice(
        key=key,
        label=label,
        action=action_of(Attack, town=town_id, attackers=list(attackers), distance=list(payers)),
        group="Attack",
        style="danger",
    )


def attack_choices(state: CityState, seat: Seat) -> list[Choice]:
    """Every reachable town the hand can beat, with each minimal set of attackers and of distance
    cards; towns share their defence and distance, so each payment is worked out once per menu."""
    player = state.players[seat]
    hand = tuple(player.hand)
    military, total_attack = _military(hand)
    if not military:
        return []
    distance_cards = _distance_cards(hand)
    payments_for: dict[tuple[int, int], tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]] = {}
    choices: list[Choice] = []
    for town_id, defense, distance, owner in attack_targets(state, seat):
        if defense > total_attack:
            continue
        found = payments_for.get((defense, distance))
        if found is None:
            found = payments_for[defense, distance] = _attack_payments(
                military, distance_cards, defense, distance
            )
        whose = f" from {state.players[owner].name}" if owner is not None else ""
        for attackers, payers in found:
            choices.append(_attack_choice(town_id, defense, distance, whose, attackers, payers))
    return choices


@lru_cache(maxsize=4096)
def _attack_payments(
    military: tuple[str, ...], distance_cards: tuple[str, ...], defense: int, distance: int
) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """(attackers, distance payers) for a defence and a distance: each minimal set of attackers, then
    each minimal set of the other distance cards. Cached by the hand's military and distance cards, which
    a seat keeps over several turns while the targets change around it."""
    pairs = []
    for attackers in minimal_sets(military, "attack", defense, None, PAYMENT_LIMIT):
        rest = tuple(uid for uid in distance_cards if uid not in attackers)
        for payers in minimal_sets(rest, "distance", distance, None, 3):
            pairs.append((attackers, payers))
    return tuple(pairs)


@lru_cache(maxsize=4096)
def _distance_cards(hand: tuple[str, ...]) -> tuple[str, ...]:
    """The hand's cards with a distance skill, in hand order: the only ones that pay an attack's
    distance (what `minimal_sets` would pick out of the whole hand)."""
    return tuple(uid for uid in hand if card(uid).distance > 0)


@lru_cache(maxsize=4096)
def _military(hand: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
    """The hand's military cards and their total attack: every menu asks, most often of a hand it
    asked before (a seat keeps its hand over several turns)."""
    military = tuple(uid for uid in hand if card(uid).attack > 0)
    return military, sum(card(uid).attack for uid in military)


def _check_attack(state: CityState, seat: Seat, action: Attack) -> tuple[str, int, int, Seat | None]:
    """The attacked town as `attack_targets` gives it, once the attack is known to be legal."""
    player = state.players[seat]
    target = next((t for t in attack_targets(state, seat) if t[0] == action.town), None)
    if target is None:
        if action.town in player.towns:
            raise RuleError("You cannot attack your own town.")
        raise RuleError("That town cannot be attacked now (only the top neutral towns and rivals' towns).")
    town_id, defense, distance, _ = target
    check_cards(player, action.attackers + action.distance, "attacking cards")
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
    return target


def _take_neutral(state: CityState, town_id: str) -> str:
    """A neutral town leaves its pile (an expansion town is replaced); the left-most building on offer
    leaves the board. Returns what the event adds."""
    for pile in state.town_piles.values():
        if town_id in pile:
            pile.remove(town_id)
    if town_id in state.expansion_row:
        state.expansion_row.remove(town_id)
        if state.expansion_deck:
            state.expansion_row.append(state.expansion_deck.pop(0))
    left = next((index for index, uid in enumerate(state.row) if uid is not None), None)
    if left is None:
        return ""
    gone = state.row[left]
    assert gone is not None
    state.row[left] = None
    state.discard.append(gone)
    return f"; {building(gone).name} leaves the board"


def _take_from_rival(state: CityState, town_id: str, owner: Seat) -> str:
    rival = state.players[owner]
    rival.towns.remove(town_id)
    if town(town_id).choose_good:
        rival.snyle_good = None
    text = f" from {rival.name}"
    if state.town_buildings.get(town_id):
        text += " with its buildings"
    return text


def apply_attack(state: CityState, seat: Seat, action: Attack) -> list[Event]:
    player = state.players[seat]
    town_id, _, _, owner = _check_attack(state, seat, action)
    order = ordered(action.attackers + action.distance, action.discard_order)
    discard_cards(player, order)
    text = f"{player.name} conquered {town(town_id).name}"
    text += _take_neutral(state, town_id) if owner is None else _take_from_rival(state, town_id, owner)
    player.towns.append(town_id)
    text += f" (attack {card_names(action.attackers)}"
    if action.distance:
        text += f"; distance {card_names(action.distance)}"
    text += ")."
    if action.discard_order is not None and order_words(order):
        text += f" Discard order: {order_words(order)}."
    # Taking a town from another player is war: they lose income and goods and must see it now.
    # Conquering a neutral town is an ordinary action (like building) and stays in the edited post.
    return [Event(text=text, urgent=owner is not None)]

"""Interaction: pillaging another player's tile with garrisoned weapons, then the raid's steps (the
attacker's loot, then their casualties) until it is settled."""

from __future__ import annotations

from typing import Any

from rules import words
from rules.city_heroes.data import RESOURCES, rules_catalogue
from rules.city_heroes.moves.common import adjacent, goods_text, pay, start, tile, work_done
from rules.city_heroes.state import Casualty, CityHeroesState, Loot, Pillage, Raid, Tile
from rules.core import Choice, Event, RuleError, Seat, built_choice, first_declared

State = CityHeroesState


def attack_bonus(state: State, seat: Seat, target: int) -> int:
    total = 0
    for other in adjacent(state, target):
        spot = state.tiles[other - 1]
        if spot.owner == seat and spot.building:
            total += rules_catalogue().buildings[spot.building].attack
    return total


def defence(state: State, target: Tile) -> int:
    """Garrison on the tile + Barracks/Fort/Castle of the defender's tiles next to it and on it +
    Kronborg's +3 for every tile next to it (and its own)."""
    cat = rules_catalogue()
    total = target.garrison
    for tile_id in (target.id, *adjacent(state, target.id)):
        spot = state.tiles[tile_id - 1]
        if spot.owner == target.owner and spot.building:
            total += cat.buildings[spot.building].defence
        if spot.work and work_done(state, spot):
            total += cat.works[spot.work].defence
    return total


def attackable(state: State, seat: Seat) -> list[tuple[Tile, dict[int, int]]]:
    out = []
    for spot in state.tiles:
        if spot.owner is None or spot.owner == seat or spot.pillaged:
            continue
        sources = {
            other: state.tiles[other - 1].garrison
            for other in adjacent(state, spot.id)
            if state.tiles[other - 1].owner == seat and state.tiles[other - 1].garrison
        }
        if sources:
            out.append((spot, sources))
    return out


def _commitments(sources: dict[int, int], bonus: int, against: int) -> dict[str, dict[int, int]]:
    """All the adjacent garrisons, and (when fewer do) the least that still wins, largest first."""
    options = {"all": sources}
    need = max(1, against + 1 - bonus)
    least: dict[int, int] = {}
    for other, count in sorted(sources.items(), key=lambda item: -item[1]):
        take = min(count, need - sum(least.values()))
        if take > 0:
            least[other] = take
    if least != sources:
        options["least"] = least
    return options


def pillage_choices(state: State, seat: Seat) -> list[Choice]:
    if state.players[seat].ready < 1:
        return []
    choices = []
    for spot, sources in attackable(state, seat):
        assert spot.owner is not None, "attackable() lists only tiles someone owns"
        bonus = attack_bonus(state, seat, spot.id)
        against = defence(state, spot)
        total = sum(sources.values())
        if total + bonus <= against:
            continue
        for kind, commit in _commitments(sources, bonus, against).items():
            attack = sum(commit.values()) + bonus
            choices.append(
                built_choice(
                    key=f"pillage:{spot.id}:{kind}",
                    label=f"Pillage {state.players[spot.owner].name}'s T{spot.id} with "
                    f"{words.count(sum(commit.values()), 'weapon')}: attack {attack} vs defence {against}",
                    action={
                        "kind": "pillage",
                        "tile": spot.id,
                        "weapons": {str(k): v for k, v in commit.items()},
                    },
                    group="Pillage",
                    style="danger",
                )
            )
    return choices


def raid_choices(state: State) -> list[Choice]:
    raid = state.raid
    assert raid is not None
    defender = state.players[raid.defender]
    if raid.loot:
        loot = [
            built_choice(
                key=f"loot:{resource}",
                label=f"Loot {words.count(1, resource)} from {defender.name} ({raid.loot} left to take)",
                action={"kind": "loot", "resource": resource},
                group="Loot",
                style="success",
            )
            for resource in RESOURCES
            if defender.stock[resource] > 0
        ]
        return first_declared(loot, "safe")  # no pass: the clock loots the first resource listed
    casualties = [
        built_choice(
            key=f"casualty:{spot}",
            label=f"Lose 1 weapon from T{spot} ({words.count(raid.casualties, 'casualty')} left)",
            action={"kind": "casualty", "tile": spot},
            group="Casualties",
            style="danger",
        )
        for spot, count in sorted(raid.committed.items())
        if count > 0
    ]
    return first_declared(casualties, "safe")  # no pass: the clock loses a weapon from the first tile


def _committed(state: State, seat: Seat, action: Pillage, target: Tile) -> dict[int, int]:
    """The weapons the pillage commits, checked against the attacker's garrisons next to the target."""
    committed = {spot: count for spot, count in action.weapons.items() if count}
    if not committed:
        raise RuleError("Commit at least one garrisoned weapon.")
    for tile_id, count in committed.items():
        source = tile(state, tile_id)
        if source.owner != seat or tile_id not in adjacent(state, target.id):
            raise RuleError(f"Weapons must come from your garrisons next to T{target.id} (not T{tile_id}).")
        if count < 0 or count > source.garrison:
            raise RuleError(f"T{tile_id} has {words.count(source.garrison, 'ready weapon')}, not {count}.")
    return committed


def apply_pillage(state: State, seat: Seat, action: Pillage, events: list[Event]) -> None:
    start(state, "pillage", "interaction", "pillage")
    if state.acted is not None:
        raise RuleError("One pillage per action.")
    player = state.players[seat]
    target = tile(state, action.tile)
    if target.owner is None or target.owner == seat:
        raise RuleError(f"Pillage targets another player's tile (T{target.id} is not).")
    if target.pillaged:
        raise RuleError(f"T{target.id} was already pillaged this turn.")
    committed = _committed(state, seat, action, target)
    if player.ready < 1:
        raise RuleError("Pillaging needs a Ready worker.")
    attack = sum(committed.values()) + attack_bonus(state, seat, target.id)
    against = defence(state, target)
    if attack <= against:
        raise RuleError(f"Attack {attack} against defence {against}: T{target.id} cannot be pillaged.")
    pay(state, seat, {"workers": 1})
    defender = state.players[target.owner]
    score = attack - against
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
            text=f"{player.name} pillaged {defender.name}'s T{target.id}: attack {attack} vs defence {against}, "
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
        casualties=min(against, sum(committed.values())),
        committed=committed,
        defenders_lost=lost,
        influence_lost=influence_lost,
        tokens_lost=tokens_lost,
    )
    settle_raid(state, events)


def settle_raid(state: State, events: list[Event]) -> None:
    """Run the raid's steps that need no choice: casualties from a single committed tile, the end."""
    raid = state.raid
    assert raid is not None
    if raid.loot:
        return
    sources = [spot for spot, count in raid.committed.items() if count]
    if raid.casualties and len(sources) == 1:
        spot = state.tiles[sources[0] - 1]
        spot.garrison -= raid.casualties
        raid.committed[sources[0]] -= raid.casualties
        state.outside["weapons"] += raid.casualties
        events.append(
            Event(
                text=f"{state.players[raid.attacker].name} lost {words.count(raid.casualties, 'weapon')} from T{spot.id}."
            )
        )
        raid.casualties = 0
    if raid.casualties:
        return
    for tile_id, count in raid.committed.items():
        spot = state.tiles[tile_id - 1]
        spot.garrison -= count
        spot.spent += count
    state.raid = None
    events.append(pillage_summary(state, raid))


def pillage_summary(state: State, raid: Raid) -> Event:
    """The defender's own account of the raid, told to them alone (the guide's network game does the
    same); the table already saw the public line when the pillage was declared."""
    attacker = state.players[raid.attacker]
    taken = goods_text(raid.taken) if raid.taken else "nothing (your stores were empty)"
    line = (
        f"Your T{raid.tile} was pillaged by {attacker.name}. They took {taken}. You lost "
        f"{words.count(raid.defenders_lost, 'defending weapon')}, {raid.influence_lost} influence and "
        f"{words.count(raid.tokens_lost, 'pillage token')}."
    )
    loot = sum(raid.taken.values())
    public = (
        f"The pillage of T{raid.tile} is over: {attacker.name} carried off {words.count(loot, 'resource')}."
    )
    return Event(text=public, private={raid.defender: line})


def raid_step(state: State, seat: Seat, action: Any, events: list[Event]) -> list[Event]:
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
        spot = state.tiles[action.tile - 1]
        spot.garrison -= 1
        raid.committed[action.tile] -= 1
        raid.casualties -= 1
        state.outside["weapons"] += 1
        events.append(Event(text=f"{player.name} lost 1 weapon from T{action.tile}."))
    else:
        raise RuleError(
            "First finish the pillage: " + ("choose the loot." if raid.loot else "choose the casualties.")
        )
    settle_raid(state, events)
    return events

"""The paying cards offered for an attack or a card action: every minimal set, whatever the hand's order.

Rulebook, Attack Town: "You need one or more Military Cards that have an Attack Value that equals the
defense value ... along with sufficient cards with the Distance Skill that equal the Distance of the
town"; Settling a New City: "Some lands also require that you use an Airship Card or Ship Card. An
Airship card or Ship card can be used for both its Distance Skill and Airship/Ship status." A menu
offers the *minimal* sets (no card could be left out), one per set of card types, since two copies of
a card pay alike."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from rules.city_of_iron.choices import kind_of, minimal_sets
from rules.city_of_iron.data import game_data

KINDS = sorted(game_data().cards)
SKILLS = ("attack", "distance", "work")


def _value(kind: str, skill: str) -> int:
    return getattr(game_data().cards[kind], skill)


def _pays(kinds: tuple[str, ...], skill: str, need: int, flag: str | None) -> bool:
    if sum(_value(kind, skill) for kind in kinds) < need:
        return False
    return flag is None or any(getattr(game_data().cards[kind], flag) for kind in kinds)


def _minimal_by_brute_force(hand: list[str], skill: str, need: int, flag: str | None) -> set[tuple[str, ...]]:
    """Every minimal paying subset of the hand, as sorted card types, by trying every subset."""
    kinds = [kind_of(uid) for uid in hand]
    found = set()
    for size in range(1, len(kinds) + 1):
        for chosen in combinations(kinds, size):
            if _pays(chosen, skill, need, flag) and not any(
                _pays(chosen[:index] + chosen[index + 1 :], skill, need, flag) for index in range(size)
            ):
                found.add(tuple(sorted(chosen)))
    return found


def _hand(rng: random.Random) -> list[str]:
    return [f"{rng.choice(KINDS)}.{index}" for index in range(rng.randint(1, 8))]


@pytest.mark.parametrize("seed", range(150))
def test_every_minimal_set_and_only_those_whatever_the_order(seed: int) -> None:
    """Random hands and needs: with room for all of them, the offered sets are exactly the minimal
    paying sets by card type (brute force over every subset), each paid by the first copies in the
    hand; the same hand in another order is offered the same sets."""
    rng = random.Random(seed)
    hand = _hand(rng)
    skill = rng.choice(SKILLS)
    need = rng.randint(1, 6)
    flag = rng.choice((None, None, "ship", "airship")) if skill == "distance" else None
    offered = minimal_sets(tuple(hand), skill, need, flag, 10_000)
    as_kinds = [tuple(sorted(map(kind_of, found))) for found in offered]
    assert len(set(as_kinds)) == len(as_kinds), "two offers of the same card types"
    assert set(as_kinds) == _minimal_by_brute_force(hand, skill, need, flag)
    for found in offered:
        assert len(set(found)) == len(found) and set(found) <= set(hand)
        for kind, copies in Counter(map(kind_of, found)).items():
            first = [uid for uid in hand if kind_of(uid) == kind][:copies]
            assert sorted(uid for uid in found if kind_of(uid) == kind) == sorted(first)
    shuffled = hand[:]
    rng.shuffle(shuffled)
    again = minimal_sets(tuple(shuffled), skill, need, flag, 10_000)
    assert sorted(tuple(sorted(map(kind_of, found))) for found in again) == sorted(as_kinds)


def test_a_ship_land_needs_a_ship_among_the_payers() -> None:
    """ "Some lands also require that you use an Airship Card or Ship Card", which "can be used for both
    its Distance Skill and Airship/Ship status": with a ship in hand every offer holds it."""
    ship = next(kind for kind in KINDS if game_data().cards[kind].ship and _value(kind, "distance"))
    other = next(kind for kind in KINDS if _value(kind, "distance") and not game_data().cards[kind].ship)
    hand = (f"{other}.0", f"{other}.1", f"{ship}.0")
    offered = minimal_sets(hand, "distance", 1, "ship", 10)
    assert offered and all(f"{ship}.0" in found for found in offered)
    assert minimal_sets(hand[:2], "distance", 1, "ship", 10) == ()


def test_the_limit_keeps_the_largest_cards_first() -> None:
    """A menu shows at most `limit` sets; the sets tried first use the largest values, so a hand of
    many small cards and one big one still gets the one-card payment."""
    small = next(kind for kind in KINDS if _value(kind, "attack") == 1)
    big = max(KINDS, key=lambda kind: _value(kind, "attack"))
    need = _value(big, "attack")
    hand = tuple(f"{small}.{index}" for index in range(need)) + (f"{big}.0",)
    assert minimal_sets(hand, "attack", need, None, 1) == ((f"{big}.0",),)

"""How a computer player judges Iron & Brass, from its own view (see `rules/policy.py`).

It plays the generic greedy policy of `rules/policy.py`: each legal choice (a random 40 of them at
strength 3 when there are more) is applied to a copy of the state and the seat's view afterwards
is scored by `evaluate`; a choice whose outcome is secret or random gets a `prior` instead; the
best score wins, ties broken at random.

The game has no hidden information, but its dice are unknown until rolled: mining and combat are
never looked ahead (that would read the state's RNG), they get a prior: the expected value.

`evaluate`: material (the gold worth of each piece on the map and being built, a disabled piece at
60%) minus the enemy's, plus gold and crews in hand (a bit less than pieces: the turn limit counts
pieces on the map), plus threats: each military unit's attack weighed by how close it stands to the
enemy Headquarters (more when it has the HQ in range), minus the same for the enemy's units near ours.

`prior` (no lookahead):
- mine: the expected roll (2 gold);
- attack / concentrated fire: P(destroyed) x target worth + P(disabled) x 40% of it, from the two
  dice (1-3 each) of both sides; a target Headquarters or Fortress is worth the game;
- Surge when defending: only for the Headquarters or a piece worth 7 gold or more;
- moving a unit: the change of its threat (nothing else of the view changes);
- picking what to build: what the piece adds over the gold it costs (military attack, the first
  factory of each kind), then its square is chosen by lookahead; 'Back' is avoided.
"""

from __future__ import annotations

from functools import cache

from rules.core import Choice, Seat
from rules.iron_and_brass.data import catalogue
from rules.iron_and_brass.state import IronAndBrassView, PieceView

GOLD = 0.8
CREW = 0.6
DISABLED = 0.6
COMMANDS = {"headquarters", "fortress"}
FACTORIES = {"foundry", "arsenal", "steam-works"}
WIN = 1000.0


@cache
def _worth(kind: str) -> int:
    spec = catalogue()[kind]
    return spec.gold + spec.crew


@cache
def _sums() -> dict[int, float]:
    """Distribution of the sum of two dice marked 1,1,2,2,3,3."""
    out: dict[int, float] = {}
    for a in (1, 2, 3):
        for b in (1, 2, 3):
            out[a + b] = out.get(a + b, 0.0) + 1 / 9
    return out


@cache
def odds(attack: int, defence: int) -> tuple[float, float]:
    """(P destroyed, P disabled) for an attack modifier against a defence modifier."""
    destroyed = disabled = 0.0
    for a, pa in _sums().items():
        for d, pd in _sums().items():
            total, guard = attack + a, defence + d
            if total > guard:
                destroyed += pa * pd
            elif total >= guard - 1:
                disabled += pa * pd
    return destroyed, disabled


def _square(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("A"), int(name[1:]) - 1


def _distance(a: str, b: str) -> int:
    (ac, ar), (bc, br) = _square(a), _square(b)
    return abs(ac - bc) + abs(ar - br)


def _threat(view: IronAndBrassView, seat: Seat) -> float:
    """How much the seat's units press on the enemy Headquarters."""
    targets = [p.square for p in view.pieces if p.owner != seat and p.kind in COMMANDS]
    if not targets:
        return 0.0
    value = 0.0
    for piece in view.pieces:
        if piece.owner != seat or piece.category == "structure" or piece.attack <= 0:
            continue
        distance = min(_distance(piece.square, target) for target in targets)
        closeness = max(0, view.size - distance) / view.size
        value += piece.attack * (0.4 * closeness + (0.6 if distance <= piece.range else 0.0))
    return value


def _material(view: IronAndBrassView, seat: Seat) -> float:
    value = 0.0
    for piece in view.pieces:
        if piece.owner == seat:
            value += _worth(piece.kind) * (DISABLED if piece.disabled else 1.0)
    for build in view.builds:
        if build.owner == seat:
            value += _worth(build.kind) * 0.95
    entry = view.seats[seat]
    value += GOLD * entry.gold + CREW * min(entry.crew, 3) + 0.2 * max(0, entry.crew - 3)
    return value


def evaluate(view: IronAndBrassView, seat: Seat) -> float:
    enemy = 1 - seat
    if view.winner is not None:
        return WIN if view.winner == seat else -WIN
    return (
        _material(view, seat)
        - _material(view, enemy)
        + 1.5 * _threat(view, seat)
        - 1.5 * _threat(view, enemy)
    )


def _at(view: IronAndBrassView, square: str) -> PieceView | None:
    return next((piece for piece in view.pieces if piece.square == square), None)


def _hit_value(view: IronAndBrassView, target: PieceView, attack: int) -> float:
    defence = target.defence
    if view.seats[target.owner].tokens.get("surge", 0) > 0 and target.category != "structure":
        defence += 1  # the defender may Surge (+2): count half of it
    destroyed, disabled = odds(attack, defence)
    worth = _worth(target.kind) * (DISABLED if target.disabled else 1.0)
    if target.kind in COMMANDS:
        worth = WIN
    return destroyed * worth + (0.0 if target.disabled else disabled * (1 - DISABLED) * _worth(target.kind))


def _move_value(view: IronAndBrassView, seat: Seat, start: str, end: str) -> float:
    """The change of the seat's threat when one unit moves (the rest of the view does not change)."""
    unit = _at(view, start)
    targets = [p.square for p in view.pieces if p.owner != seat and p.kind in COMMANDS]
    if unit is None or not targets or unit.attack <= 0:
        return 0.0

    def pressure(square: str) -> float:
        distance = min(_distance(square, target) for target in targets)
        closeness = max(0, view.size - distance) / view.size
        return unit.attack * (0.4 * closeness + (0.6 if distance <= unit.range else 0.0))

    return 1.5 * (pressure(end) - pressure(start))


def prior(view: IronAndBrassView, seat: Seat, choice: Choice) -> float | None:
    action = choice.action
    kind = action.get("kind")
    if kind == "mine":
        return 2 * GOLD
    if kind == "back":
        return -5.0
    if kind == "defend":
        if view.combat is None:
            return 0.0
        target = _at(view, view.combat.target)
        important = target is not None and (target.kind in COMMANDS or _worth(target.kind) >= 7)
        return (1.0 if important else -1.0) if action["surge"] else 0.0
    if kind == "attack":
        unit, target = _at(view, action["unit"]), _at(view, action["target"])
        if unit is None or target is None:
            return 0.0
        token = action.get("token")
        attack = unit.attack + (2 if token == "surge" else 0)
        return _hit_value(view, target, attack) - (1.0 if token else 0.0)
    if kind == "concentrate":
        units = [_at(view, square) for square in action["units"]]
        target = _at(view, action["target"])
        if target is None or any(unit is None for unit in units):
            return 0.0
        attack = sum(unit.attack for unit in units if unit is not None) + (2 if action.get("surge") else 0)
        return _hit_value(view, target, attack) - (1.0 if action.get("surge") else 0.0) - 1.0
    if kind == "aim":
        target = _at(view, action["target"])
        ready = sorted(
            (p.attack for p in view.pieces if p.owner == seat and p.can_attack and p.category != "structure"),
            reverse=True,
        )
        if target is None or len(ready) < 2:
            return 0.0
        return 0.8 * _hit_value(view, target, ready[0] + ready[1]) - 1.0
    if kind == "move":
        return _move_value(view, seat, action["unit"], action["to"])
    if kind == "pick":
        spec = catalogue()[action["item"]]
        owned = {p.kind for p in view.pieces if p.owner == seat} | {
            b.kind for b in view.builds if b.owner == seat
        }
        value = (1.0 - GOLD) * spec.gold + (1.0 - CREW) * spec.crew
        if spec.military:
            value += 0.8 * spec.attack + 0.2 * spec.defence
        if spec.id in FACTORIES and spec.id not in owned:
            value += 3.0
        if spec.id == "fortress":
            value += 4.0
        return value
    return None

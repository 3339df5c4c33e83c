"""Fighting: single attacks (with Surge or Spotter), concentrated fire (a two-step choice), the
defender's Surge asked before the dice, the dice themselves and the wins by destruction."""

from __future__ import annotations

from functools import lru_cache

from rules import words
from rules.core import Choice, Event, RuleError, Seat, built_choice, first_declared
from rules.iron_and_brass import scoring
from rules.iron_and_brass.board import in_range, manhattan, neighbours
from rules.iron_and_brass.data import PieceSpec
from rules.iron_and_brass.moves.common import (
    COMMANDS,
    NO_CONCENTRATED_FIRE,
    SURGE,
    State,
    at,
    attack_of,
    by_square,
    can_attack,
    d3,
    defence_of,
    enemy_at,
    label,
    military_units,
    own_piece,
    own_pieces,
    piece_by_id,
    play_token,
    spec,
    token_problem,
)
from rules.iron_and_brass.state import (
    Aim,
    Attack,
    Combat,
    CombatRecord,
    Concentrate,
    Defend,
    Outcome,
    Piece,
    PlayerState,
    square_name,
)

TOKEN_SUFFIX = {None: "", "surge": " (Surge +2)", "spotter": " (Spotter +1 range)"}


# ---- the choices ---------------------------------------------------------------------------------
def _attack_tokens(piece_spec: PieceSpec, player: PlayerState, distance: int) -> list[str | None]:
    """How the unit may attack a piece `distance` away: plainly, with Surge, or with Spotter (any advantage
    token may be played for either; one per attack)."""
    tokens: list[str | None] = []
    if distance <= piece_spec.range:
        tokens.append(None)
        if piece_spec.military and player.advantage_tokens > 0:
            tokens.append("surge")
    elif distance == piece_spec.range + 1 and player.advantage_tokens > 0:
        tokens.append("spotter")
    return tokens


def _attacks_of(piece: Piece, enemies: list[Piece], player: PlayerState) -> list[Choice]:
    piece_spec = spec(piece)
    here = square_name(piece.col, piece.row)
    out: list[Choice] = []
    for target in enemies:
        distance = manhattan((piece.col, piece.row), (target.col, target.row))
        tokens = _attack_tokens(piece_spec, player, distance)
        if not tokens:
            continue
        there = square_name(target.col, target.row)
        out += [_attack_choice(piece_spec.name, here, spec(target).name, there, token) for token in tokens]
    return out


@lru_cache(maxsize=4096)
def _attack_choice(name: str, here: str, target: str, there: str, token: str | None) -> Choice:
    """One attack, built once per unit types and squares (the search asks for menus thousands of
    times a decision; choices are read-only)."""
    return built_choice(
        key=f"at:{here}:{there}" + (f":{token[:2]}" if token else ""),
        label=f"{name} {here} → attack {target} {there}" + TOKEN_SUFFIX[token],
        action={"kind": "attack", "unit": here, "target": there, "token": token},
        group="Attack",
        style="danger",
    )


def attack_choices(state: State, seat: Seat) -> list[Choice]:
    player = state.players[seat]
    enemies = by_square([piece for piece in state.pieces if piece.owner != seat])
    out: list[Choice] = []
    for piece in own_pieces(state, seat):
        if can_attack(piece):
            out.extend(_attacks_of(piece, enemies, player))
    return out


def aim_choices(state: State, seat: Seat) -> list[Choice]:
    """'Concentrated fire on …' for every enemy piece two of the seat's units can fire on: the first step."""
    ready = _fire_ready(state, seat) if concentrate_problem(state) is None else []
    if len(ready) < 2:
        return []
    out: list[Choice] = []
    for target in by_square([piece for piece in state.pieces if piece.owner != seat]):
        if len(concentrate_units(state, seat, target, ready)) >= 2:
            there = square_name(target.col, target.row)
            out.append(
                built_choice(
                    key=f"aim:{there}",
                    label=f"Concentrated fire on {spec(target).name} {there} (2 actions)…",
                    action={"kind": "aim", "target": there},
                    group="Concentrated fire",
                    style="danger",
                )
            )
    return out


def pair_choices(state: State, seat: Seat, square: str) -> list[Choice]:
    """The second step of concentrated fire on `square`: every pair of units, with Surge or not."""
    target = at(state, square)
    assert target is not None
    units = by_square(concentrate_units(state, seat, target))
    surge = state.players[seat].advantage_tokens > 0
    out: list[Choice] = []
    for index, first in enumerate(units):
        for second in units[index + 1 :]:
            pair = [square_name(first.col, first.row), square_name(second.col, second.row)]
            base = f"{label(first)} + {label(second)} → {spec(target).name} {square}"
            for flag in (False, True) if surge else (False,):
                out.append(
                    built_choice(
                        key=f"cf:{pair[0]}:{pair[1]}:{square}" + (":su" if flag else ""),
                        label=(base + (" (Surge +2)" if flag else ""))[:100],
                        action={"kind": "concentrate", "units": pair, "target": square, "surge": flag},
                        group="Concentrated fire",
                        style="danger",
                    )
                )
    return first_declared(out, "safe")  # no pass here ('Back' steps back): the clock fires the first pair


def defend_choices(state: State) -> list[Choice]:
    combat = state.combat
    assert combat is not None
    target = piece_by_id(state, combat.target)
    left = words.count(state.players[target.owner].advantage_tokens, "advantage token")
    return [
        built_choice(
            key="def:surge",
            label=f"Surge: +2 defence for the {label(target)} ({left} left)",
            action={"kind": "defend", "surge": True},
            group="Defend",
            style="danger",
            timeout="safe",  # what the clock has always played here (the menu's first choice)
        ),
        built_choice(
            key="def:none",
            label="No Surge: roll the dice",
            action={"kind": "defend", "surge": False},
            group="Defend",
            style="primary",
        ),
    ]


# ---- declaring an attack -------------------------------------------------------------------------
def _attacker(state: State, seat: Seat, square: str) -> Piece:
    piece = own_piece(state, seat, square)
    piece_spec = spec(piece)
    if piece_spec.range <= 0:
        raise RuleError(f"The {piece_spec.name} cannot attack.")
    if not can_attack(piece):
        if piece_spec.category == "artillery" and piece.moved:
            raise RuleError(f"The {label(piece)} moved this turn: artillery moves OR attacks.")
        raise RuleError(f"The {label(piece)} already attacked this turn (no attack-attack).")
    return piece


def attack(state: State, seat: Seat, action: Attack, events: list[Event]) -> None:
    piece = _attacker(state, seat, action.unit)
    piece_spec = spec(piece)
    target = enemy_at(state, seat, action.target)
    player = state.players[seat]
    spotter = action.token == "spotter"
    surge = action.token == "surge"
    problem = token_problem(player) if action.token else None
    if problem:
        raise RuleError(problem)
    if surge and not piece_spec.military:
        raise RuleError("Surge can only be used with military units, not structures.")
    reach_range = piece_spec.range + (1 if spotter else 0)
    distance = manhattan((piece.col, piece.row), (target.col, target.row))
    if distance > reach_range:
        raise RuleError(
            f"{label(target)} is {words.count(distance, 'square')} away: out of the {piece_spec.name}'s range of "
            f"{reach_range}."
        )
    piece.attacked = True
    state.actions_left -= 1
    if action.token:
        play_token(player, action.token)
    combat = Combat(attacker=seat, units=[piece.id], target=target.id, attacker_surge=surge, spotter=spotter)
    _declare(state, combat, events)


def concentrate_units(
    state: State, seat: Seat, target: Piece, ready: list[Piece] | None = None
) -> list[Piece]:
    """Units that may join a concentrated fire on `target`: military, not tanks or heavy artillery,
    able to attack now and in range."""
    if ready is None:
        ready = _fire_ready(state, seat)
    return [
        piece
        for piece in ready
        if in_range((piece.col, piece.row), (target.col, target.row), spec(piece).range)
    ]


def _fire_ready(state: State, seat: Seat) -> list[Piece]:
    return [
        piece
        for piece in state.pieces
        if piece.owner == seat
        and spec(piece).military
        and spec(piece).category != "vehicle"
        and piece.kind not in NO_CONCENTRATED_FIRE
        and can_attack(piece)
    ]


def concentrate_problem(state: State) -> str | None:
    if state.concentrated:
        return "Concentrated fire is allowed once per turn."
    if state.actions_left < 2:
        return "Concentrated fire costs 2 actions."
    return None


def aim(state: State, seat: Seat, action: Aim, events: list[Event]) -> None:
    problem = concentrate_problem(state)
    target = at(state, action.target)
    if problem is None and (target is None or target.owner == seat):
        problem = f"There is no enemy piece on {action.target.upper()}."
    if problem is None and target is not None and len(concentrate_units(state, seat, target)) < 2:
        problem = "Concentrated fire needs two of your units able to attack that piece."
    if problem:
        raise RuleError(problem)
    assert target is not None
    state.picking = f"aim:{square_name(target.col, target.row)}"


def concentrate(state: State, seat: Seat, action: Concentrate, events: list[Event]) -> None:
    problem = concentrate_problem(state)
    if problem:
        raise RuleError(problem)
    target = enemy_at(state, seat, action.target)
    units = [own_piece(state, seat, square) for square in action.units]
    if units[0].id == units[1].id:
        raise RuleError("Concentrated fire takes two different units.")
    allowed = {piece.id for piece in concentrate_units(state, seat, target)}
    for piece in units:
        if piece.id not in allowed:
            raise RuleError(
                f"The {label(piece)} cannot join a concentrated fire on {label(target)}: "
                "it must be a unit other than a tank or heavy artillery, able to attack and in range."
            )
    player = state.players[seat]
    problem = token_problem(player) if action.surge else None
    if problem:
        raise RuleError(problem)
    for piece in units:
        piece.attacked = True
    state.concentrated = True
    state.actions_left -= 2
    if action.surge:
        play_token(player, "surge")
    combat = Combat(
        attacker=seat, units=[piece.id for piece in units], target=target.id, attacker_surge=action.surge
    )
    _declare(state, combat, events)


def _declare(state: State, combat: Combat, events: list[Event]) -> None:
    """'the use of the Surge token must be declared BEFORE any dice are rolled': the attacker's is
    part of the attack; the defender is asked when a Surge could apply: a military unit defends and its
    owner has an advantage token left (any of them may be played for Surge)."""
    target = piece_by_id(state, combat.target)
    defender = state.players[target.owner]
    if spec(target).military and defender.advantage_tokens > 0:
        state.step = "defend"
        state.combat = combat
        attackers = " and ".join(label(piece_by_id(state, pid)) for pid in combat.units)
        surge = " with Surge (+2)" if combat.attacker_surge else ""
        events.append(
            Event(
                text=f"{state.players[combat.attacker].name}'s {attackers} attack{'s' if len(combat.units) == 1 else ''} "
                f"{defender.name}'s {label(target)}{surge}; {defender.name} may answer with Surge.",
                urgent=True,  # the defender must answer before the dice
            )
        )
        return
    resolve(state, combat, False, events)


def defend(state: State, seat: Seat, action: Defend, events: list[Event]) -> None:
    """The defender's answer: Surge (+2 defence) or not; then the dice."""
    combat = state.combat
    assert combat is not None
    defender = state.players[seat]
    if action.surge:
        problem = token_problem(defender)
        if problem:
            raise RuleError(problem)
        play_token(defender, "surge")
    resolve(state, combat, action.surge, events)


# ---- the dice ------------------------------------------------------------------------------------
def _outcome(
    state: State, target: Piece, attack_sum: int, defence_sum: int
) -> tuple[Outcome, list[Piece], str]:
    """ATTACKING 3: (outcome, pieces destroyed, the event's ending) of the two sums; disables the target."""
    target_name = spec(target).name
    if attack_sum > 2 * defence_sum:
        second = _splash(state, target)
        if second is None:
            line = f"more than double: the {target_name} is destroyed (no adjacent unit of equal or lower defence)."
            return "destroyed-two", [target], line
        line = f"more than double: the {target_name} is destroyed and so is the adjacent {label(second)}."
        return "destroyed-two", [target, second], line
    if attack_sum > defence_sum:
        return "destroyed", [target], f"the {target_name} is destroyed."
    if attack_sum >= defence_sum - 1:
        line = (
            f"the {target_name} is disabled (-2 attack and defence until "
            f"{'healed' if spec(target).category == 'infantry' else 'repaired'})."
            if not target.disabled
            else f"the {target_name} is disabled again (no further effect)."
        )
        target.disabled = True
        return "disabled", [], line
    return "no-damage", [], f"no damage to the {target_name}."


def resolve(state: State, combat: Combat, defender_surge: bool, events: list[Event]) -> None:
    """ATTACKING 2-3: two D3 each, sums compared; destroyed, destroyed plus one, disabled, or nothing."""
    units = [piece_by_id(state, pid) for pid in combat.units]
    target = piece_by_id(state, combat.target)
    attacker, defender = state.players[combat.attacker], state.players[target.owner]
    attack_mod = sum(attack_of(piece) for piece in units) + (SURGE if combat.attacker_surge else 0)
    defence_mod = defence_of(target) + (SURGE if defender_surge else 0)
    attack_dice = [d3(state.rng), d3(state.rng)]
    defence_dice = [d3(state.rng), d3(state.rng)]
    attack_sum = attack_mod + sum(attack_dice)
    defence_sum = defence_mod + sum(defence_dice)
    who = " and ".join(label(piece) for piece in units)
    mods = " + ".join(f"{attack_of(piece)}" for piece in units)
    attack_text = (
        f"{mods}{' + Surge 2' if combat.attacker_surge else ''} + dice {attack_dice[0]}+{attack_dice[1]}"
    )
    defence_text = f"{defence_of(target)}{' + Surge 2' if defender_surge else ''} + dice {defence_dice[0]}+{defence_dice[1]}"
    kind = "concentrated fire" if len(units) == 2 else "attack"
    head = (
        f"{attacker.name}'s {who} {kind} on {defender.name}'s {label(target)}"
        f"{' (Spotter +1 range)' if combat.spotter else ''}: "
        f"attack {attack_text} = {attack_sum} vs defence {defence_text} = {defence_sum}: "
    )
    target_square = square_name(target.col, target.row)
    outcome, destroyed, line = _outcome(state, target, attack_sum, defence_sum)
    for piece in destroyed:
        state.pieces.remove(piece)
    state.last_combat = CombatRecord(
        text=head + line,
        attacker=combat.attacker,
        squares=[square_name(piece.col, piece.row) for piece in units],
        target=target_square,
        attack_dice=attack_dice,
        defence_dice=defence_dice,
        attack_sum=attack_sum,
        defence_sum=defence_sum,
        outcome=outcome,
    )
    state.step = "play"
    state.combat = None
    # A hit (a piece destroyed or disabled) changes the defender's position: they must see it now. A
    # miss changes nothing on the map, so it stays in the attacker's edited post.
    events.append(Event(text=head + line, reveals=True, urgent=outcome != "no-damage"))
    _check_victory(state, combat.attacker, destroyed, events)


def _splash(state: State, target: Piece) -> Piece | None:
    """'one adjacent Defender's unit of equal or less Defense strength is also destroyed': the
    strongest such military unit (highest defence, then highest cost, then first square A1 onward)."""
    limit = defence_of(target)
    around = set(neighbours((target.col, target.row), state.size))
    candidates = [
        piece
        for piece in state.pieces
        if piece.owner == target.owner
        and piece.id != target.id
        and (piece.col, piece.row) in around
        and spec(piece).military
        and defence_of(piece) <= limit
    ]
    if not candidates:
        return None
    return min(candidates, key=lambda p: (-defence_of(p), -spec(p).gold, p.row, p.col))


def _check_victory(state: State, attacker: Seat, destroyed: list[Piece], events: list[Event]) -> None:
    if not destroyed:
        return
    loser = 1 - attacker
    names = [player.name for player in state.players]
    command = next((p for p in destroyed if p.kind in COMMANDS), None)
    if command is not None:
        reason = f"{names[attacker]} wins by destroying {names[loser]}'s {spec(command).name} in round {state.round}"
    elif any(spec(p).military for p in destroyed) and military_units(state, loser) == 0:
        # WINNING: '... until one side's military units are destroyed'; units in training count.
        reason = (
            f"{names[attacker]} wins by destroying {names[loser]}'s last military unit in round "
            f"{state.round}: {names[loser]} has no military units left, on the board or in training"
        )
    else:
        return
    scoring.end(state, attacker, reason, events)

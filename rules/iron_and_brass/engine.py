"""Iron & Brass: the rules of `../shared/rules/iron-and-brass.txt` on the platform's contract.

Two players take turns of up to 4 actions (mine, hire, build, move, attack, concentrated fire,
repair, heal). The only decision outside the current player's turn is the defender's Surge, asked
between an attack's declaration and its dice. Builds complete at the start of their owner's next
turn, inside `apply` right after the move that ends the previous turn. Rule decisions and the
designed stat table are listed in `data/iron_and_brass/README.md`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules import words
from rules.core import CatalogueEntry, Choice, Event, Game, GameInfo, OptionSpec, Result, Rng, RuleError, Seat
from rules.iron_and_brass.board import (
    Obstacles,
    Square,
    base_row,
    in_range,
    manhattan,
    neighbours,
    occupancy,
    reach,
    reserved,
    structure_squares,
    unit_squares,
)
from rules.iron_and_brass.catalogue import entries as catalogue_entries
from rules.iron_and_brass.data import FACTORY, TOKEN_NAMES, Catalogue, PieceSpec, catalogue
from rules.iron_and_brass.state import (
    Action,
    Aim,
    Attack,
    Back,
    Build,
    BuildAction,
    BuildView,
    Combat,
    CombatRecord,
    CombatView,
    Concentrate,
    Defend,
    EndTurn,
    Heal,
    Hire,
    IronAndBrassState,
    IronAndBrassView,
    ItemView,
    Mine,
    Move,
    Pick,
    Piece,
    PieceView,
    PlayerState,
    Repair,
    SeatView,
    parse_square,
    square_name,
)

State = IronAndBrassState
SIDES = ("Iron", "Brass")
DISABLED_PENALTY = 2
"""'A disabled unit's Attack and defense modifiers are reduced by 2 until the unit is healed/repaired.'"""
SURGE = 2
NO_CONCENTRATED_FIRE = {"heavy-artillery"}
"""'Two units (except Tanks or Heavy Artillery)': tanks are the vehicle category."""
COMMANDS = {"headquarters", "fortress"}
"""Destroying the opponent's Headquarters/Fortress wins the game."""


def d3(rng: Rng) -> int:
    """The game's dice are D6s marked 1,1,2,2,3,3: a D3."""
    return rng.randint(1, 3)


def _choice(*, key: str, label: str, action: dict[str, Any], group: str, style: str = "secondary") -> Choice:
    """A Choice without re-validation: the choice list is rebuilt after every move and its keys and
    labels are built to the contract's limits (the tests check every one against `Choice`)."""
    return Choice.model_construct(key=key, label=label, action=action, group=group, style=style)


class IronAndBrass(Game[IronAndBrassState]):
    info: ClassVar[GameInfo] = GameInfo(
        id="iron-and-brass",
        name="Iron & Brass",
        min_players=2,
        max_players=2,
        summary=(
            "Two rival towns of the colony of Dugbirch mine a shared vein of gold, hire crews, raise "
            "structures and armies on a square grid, and fight with dice until a Headquarters falls."
        ),
        hidden_information=False,
        randomness=True,
        simultaneous=False,
        options=(
            OptionSpec(
                name="board_size",
                label="Board size",
                kind="int",
                default=12,
                min=10,
                max=16,
                description="The square grid is 10x10 to 16x16.",
            ),
            OptionSpec(
                name="max_rounds",
                label="Turn limit (rounds)",
                kind="int",
                default=100,
                min=1,
                max=500,
                description=(
                    "A safety net: after this many rounds the player with more gold worth of pieces on "
                    "the map wins (a tie is a draw)."
                ),
            ),
        ),
    )
    state_model = IronAndBrassState
    view_model = IronAndBrassView
    action_type = Action

    @property
    def cards(self) -> Catalogue:
        return catalogue()

    def catalogue(self) -> list[CatalogueEntry]:
        """Every unit, structure and advantage token, for `/card`."""
        return list(catalogue_entries())

    # ---- setup and turns -------------------------------------------------------------------
    def _setup(self, players: list[str], options: dict[str, Any], rng: Rng) -> State:
        setup = self.cards.setup
        size = options["board_size"]
        # SET-UP: 'Each player roll 2 dice, highest result is Player 1.' Ties roll again.
        lines: list[str] = []
        while True:
            rolls = [(d3(rng), d3(rng)) for _ in players]
            sums = [sum(pair) for pair in rolls]
            lines.append(
                ", ".join(f"{name} {a}+{b} = {a + b}" for name, (a, b) in zip(players, rolls, strict=True))
            )
            if sums[0] != sums[1]:
                break
        first = 0 if sums[0] > sums[1] else 1
        opening = (
            f"Opening roll: {'; tie, again: '.join(lines)}. {players[first]} is Player 1 and plays first."
        )
        state = State(
            size=size,
            max_rounds=options["max_rounds"],
            players=[
                PlayerState(
                    name=name,
                    gold=setup.gold,
                    crew=setup.crew,
                    tokens=setup.advantage_tokens.counts(),
                )
                for name in players
            ],
            rng=rng,
            first=first,
            opening=opening,
            gold_left=setup.gold_mined,
            current=first,
            actions_left=setup.actions,
        )
        # 'Place your Headquarters and Barracks structures along your edge of the game board':
        # side by side in the middle of the base row, the two camps point-symmetric.
        middle = size // 2
        for seat in (0, 1):
            row = base_row(state, seat)
            hq, barracks = (middle - 1, middle) if seat == 0 else (middle, middle - 1)
            self._place(state, "headquarters", seat, (hq, row))
            self._place(state, "barracks", seat, (barracks, row))
        return state

    def opening_events(self, state: State) -> list[Event]:
        """SET-UP's roll for Player 1 happens inside `setup`: the first post tells it."""
        return [Event(text=state.opening, reveals=True)]

    def _place(self, state: State, kind: str, seat: Seat, square: Square) -> Piece:
        piece = Piece(id=state.next_id, kind=kind, owner=seat, col=square[0], row=square[1])
        state.next_id += 1
        state.pieces.append(piece)
        return piece

    def _start_turn(self, state: State, seat: Seat, events: list[Event]) -> None:
        state.current = seat
        state.actions_left = self.cards.setup.actions
        state.concentrated = False
        state.picking = None
        for piece in state.pieces:
            if piece.owner == seat:
                piece.moved = piece.attacked = False
        ready = [build for build in state.builds if build.owner == seat]
        state.builds = [build for build in state.builds if build.owner != seat]
        for build in ready:
            spec = self.cards[build.kind]
            if spec.upgrades is not None:
                old = next(
                    (p for p in state.pieces if p.owner == seat and p.kind == spec.upgrades),
                    None,
                )
                if old is not None:
                    state.pieces.remove(old)
            self._place(state, build.kind, seat, (build.col, build.row))
            events.append(
                Event(
                    text=f"{state.players[seat].name}'s {spec.name} is ready at "
                    f"{square_name(build.col, build.row)}."
                )
            )

    def _end_turn(self, state: State, events: list[Event]) -> None:
        following = 1 - state.current
        if following == state.first:
            if state.round >= state.max_rounds:
                self._finish_at_limit(state, events)
                return
            state.round += 1
        self._start_turn(state, following, events)

    def _after_action(self, state: State, events: list[Event]) -> None:
        """A turn with no action left ends by itself (no decision remains but 'end turn')."""
        if state.step == "play" and state.actions_left <= 0:
            self._end_turn(state, events)

    def _finish_at_limit(self, state: State, events: list[Event]) -> None:
        state.step = "over"
        state.picking = None
        values = [self._worth(state, seat) for seat in (0, 1)]
        names = [player.name for player in state.players]
        if values[0] == values[1]:
            state.winner = None
            state.reason = (
                f"A draw at the turn limit of {words.count(state.max_rounds, 'round')}: both sides have "
                f"{values[0]} gold worth of pieces on the map"
            )
        else:
            winner = 0 if values[0] > values[1] else 1
            state.winner = winner
            state.reason = (
                f"{names[winner]} wins at the turn limit of {words.count(state.max_rounds, 'round')} with more "
                f"gold worth of pieces on the map, {values[winner]} to {names[1 - winner]}'s {values[1 - winner]}"
            )
        events.append(Event(text=f"Game over: {state.reason}.", urgent=True))

    def _worth(self, state: State, seat: Seat) -> int:
        return sum(self.cards[piece.kind].gold for piece in state.pieces if piece.owner == seat)

    def turn_key(self, state: State) -> tuple[int, int]:
        """'Each round, each player can take up to 4 actions in their turn': undo rewinds to its start
        (dice rolled on the way still forbid it)."""
        return (state.round, state.current)

    def _to_act(self, state: State) -> set[Seat]:
        if state.step == "play":
            return {state.current}
        if state.step == "defend":
            return {1 - state.current}
        return set()

    # ---- small queries -------------------------------------------------------------------------
    def spec(self, piece: Piece | Build | str) -> PieceSpec:
        return self.cards.pieces[piece if isinstance(piece, str) else piece.kind]

    def attack_of(self, piece: Piece) -> int:
        return self.spec(piece).attack - (DISABLED_PENALTY if piece.disabled else 0)

    def defence_of(self, piece: Piece) -> int:
        return self.spec(piece).defence - (DISABLED_PENALTY if piece.disabled else 0)

    def label(self, piece: Piece) -> str:
        return f"{self.spec(piece).name} {square_name(piece.col, piece.row)}"

    def can_move(self, piece: Piece) -> bool:
        """'Units cannot ... move-move, or move-attack-move'; artillery 'can move OR attack'."""
        spec = self.spec(piece)
        if not spec.military or piece.moved:
            return False
        return not (spec.category == "artillery" and piece.attacked)

    def can_attack(self, piece: Piece) -> bool:
        """'Units cannot attack-attack'; artillery 'can move OR attack'; structures with a cannon
        (Turret, Fortress) attack once a turn."""
        spec = self.spec(piece)
        if spec.range <= 0 or piece.attacked:
            return False
        return not (spec.category == "artillery" and piece.moved)

    def _at(self, state: State, square: str) -> Piece | None:
        where = parse_square(square, state.size)
        if where is None:
            raise RuleError(f"{square!r} is not a square of this {state.size}x{state.size} map.")
        return next((p for p in state.pieces if (p.col, p.row) == where), None)

    def _own_piece(self, state: State, seat: Seat, square: str) -> Piece:
        piece = self._at(state, square)
        if piece is None:
            raise RuleError(f"There is nothing on {square.upper()}.")
        if piece.owner != seat:
            raise RuleError(f"The {self.label(piece)} is not yours.")
        return piece

    def _standing(self, state: State, seat: Seat, kind: str) -> bool:
        return any(piece.owner == seat and piece.kind == kind for piece in state.pieces)

    def military_units(self, state: State, seat: Seat) -> int:
        """Units on the map plus units in training/commissioned."""
        return sum(1 for p in state.pieces if p.owner == seat and self.spec(p).military) + sum(
            1 for b in state.builds if b.owner == seat and self.spec(b).military
        )

    # ---- building ------------------------------------------------------------------------------
    def build_problem(
        self,
        state: State,
        seat: Seat,
        item: str,
        owned: set[str] | None = None,
        room: dict[str, bool] | None = None,
    ) -> str | None:
        """Why `seat` cannot build `item` now (on any square), or None."""
        if item not in self.cards:
            return f"There is no piece called {item!r}."
        spec = self.cards[item]
        player = state.players[seat]
        if not spec.buildable:
            return f"The {spec.name} is placed at setup and cannot be built."
        if player.gold < spec.gold:
            return f"The {spec.name} costs {spec.gold} gold; you have {player.gold}."
        if player.crew < spec.crew:
            return f"The {spec.name} needs {spec.crew} crew; you have none."
        if owned is None:
            owned = {piece.kind for piece in state.pieces if piece.owner == seat}
        for needed in spec.requires:
            if needed not in owned:
                return f"The {spec.name} needs your {self.cards[needed].name} first."
        if spec.military:
            if player.trained.get(item, 0) >= spec.count:
                return (
                    f"All {spec.count} of your {spec.name} tokens have been used "
                    "(destroyed units are gone for good)."
                )
            factory = FACTORY[spec.category]
            if factory not in owned:
                return f"A new {spec.name} is placed next to your {self.cards[factory].name}: build it first."
        else:
            existing = sum(1 for p in state.pieces if p.owner == seat and p.kind == item) + sum(
                1 for b in state.builds if b.owner == seat and b.kind == item
            )
            if existing >= spec.count:
                return f"You already have {words.count(spec.count, spec.name)} built or under way."
            if spec.upgrades is not None and spec.upgrades not in owned:
                return f"The {spec.name} is built on your {self.cards[spec.upgrades].name}."
        where = spec.category if spec.upgrades is None else item
        if room is None or where not in room:
            free = bool(self.build_squares(state, seat, item))
            if room is not None:
                room[where] = free
        else:
            free = room[where]
        if not free:
            if spec.military:
                return f"There is no free square for a new {spec.name}."
            return f"There is no free square to build {words.a(spec.name)} on."
        return None

    def build_squares(self, state: State, seat: Seat, item: str) -> list[Square]:
        spec = self.cards[item]
        if spec.upgrades is not None:
            return [
                (p.col, p.row)
                for p in state.pieces
                if p.owner == seat
                and p.kind == spec.upgrades
                and not any(b.owner == seat and b.kind == item for b in state.builds)
            ]
        if spec.category == "structure":
            return structure_squares(state, self.cards, seat)
        return unit_squares(state, self.cards, seat, spec.category)

    def _build(self, state: State, seat: Seat, action: BuildAction, events: list[Event]) -> None:
        problem = self.build_problem(state, seat, action.item)
        if problem:
            raise RuleError(problem)
        spec = self.cards[action.item]
        where = parse_square(action.square, state.size)
        if where is None or where not in self.build_squares(state, seat, action.item):
            raise RuleError(self._placement_rule(spec, action.square))
        player = state.players[seat]
        player.gold -= spec.gold
        player.crew -= spec.crew
        player.spent += spec.gold
        if spec.military:
            player.trained[spec.id] = player.trained.get(spec.id, 0) + 1
        state.builds.append(Build(kind=spec.id, owner=seat, col=where[0], row=where[1]))
        state.actions_left -= 1
        verb = "trained" if spec.crew == 0 else "commissioned"
        cost = f"{spec.gold} gold" + (" + 1 crew" if spec.crew else "")
        events.append(
            Event(
                text=f"{player.name} {verb} {words.a(spec.name)} at {square_name(*where)} for {cost}; "
                "it is ready at the start of their next turn."
            )
        )

    def _placement_rule(self, spec: PieceSpec, square: str) -> str:
        if spec.upgrades is not None:
            return f"The {spec.name} is built on your {self.cards[spec.upgrades].name}'s square."
        if spec.category == "structure":
            return (
                f"A {spec.name} cannot go on {square.upper()}: structures go on a free square of your base "
                "row or orthogonally next to one of your structures."
            )
        factory = self.cards[FACTORY[spec.category]]
        return (
            f"A new {spec.name} cannot go on {square.upper()}: it is placed on a free square as close as "
            f"possible to your {factory.name}."
        )

    # ---- military ------------------------------------------------------------------------------
    def _moves(
        self,
        state: State,
        piece: Piece,
        obstacles: Obstacles,
        open_road: bool,
    ) -> tuple[dict[Square, int], dict[Square, int]]:
        """Destinations without a token, and the extra ones with Open Road (+1 movement)."""
        movement = self.spec(piece).move
        if open_road:
            wider = reach(state, self.cards, piece, movement + 1, obstacles)
            plain = {square: steps for square, steps in wider.items() if steps <= movement}
            extra = {square: steps for square, steps in wider.items() if steps > movement}
            return plain, extra
        return reach(state, self.cards, piece, movement, obstacles), {}

    def _move(self, state: State, seat: Seat, action: Move, events: list[Event]) -> None:
        piece = self._own_piece(state, seat, action.unit)
        spec = self.spec(piece)
        if not spec.military:
            raise RuleError(f"The {spec.name} is a structure: structures do not move.")
        if not self.can_move(piece):
            if spec.category == "artillery" and piece.attacked:
                raise RuleError(f"The {self.label(piece)} attacked this turn: artillery moves OR attacks.")
            raise RuleError(f"The {self.label(piece)} already moved this turn (no move-move).")
        player = state.players[seat]
        if action.open_road and player.tokens.get("open_road", 0) < 1:
            raise RuleError("You have no Open Road token left.")
        destination = parse_square(action.to, state.size)
        if destination is None:
            raise RuleError(f"{action.to!r} is not a square of this {state.size}x{state.size} map.")
        movement = spec.move + (1 if action.open_road else 0)
        options = reach(state, self.cards, piece, movement)
        if destination not in options:
            raise RuleError(self._why_not_reachable(state, piece, destination, movement))
        source = self.label(piece)
        piece.col, piece.row = destination
        piece.moved = True
        state.actions_left -= 1
        extra = ""
        if action.open_road:
            player.tokens["open_road"] -= 1
            extra = " with Open Road (+1 movement)"
        events.append(Event(text=f"{player.name}'s {source} moved to {square_name(*destination)}{extra}."))

    def _why_not_reachable(self, state: State, piece: Piece, square: Square, movement: int) -> str:
        spec = self.spec(piece)
        name = square_name(*square)
        occupant = occupancy(state).get(square)
        if occupant is not None:
            return (
                f"{name} is occupied by {words.a(self.spec(occupant).name)}: a move ends on an empty square."
            )
        if square in reserved(state):
            return f"{name} is held by a build under way."
        dx, dy = abs(square[0] - piece.col), abs(square[1] - piece.row)
        if movement >= 2 and dx == dy == movement:
            return f"{name} needs {words.count(movement, 'diagonal step')}: a move cannot be diagonal for all its steps."
        if max(dx, dy) > movement:
            return f"{name} is out of the {spec.name}'s movement of {movement}."
        if spec.category == "infantry":
            return f"No path of {words.count(movement, 'step')} reaches {name}: infantry cannot pass enemy pieces."
        return (
            f"No path of {words.count(movement, 'step')} reaches {name}: vehicles and artillery pass no structure "
            "and no enemy piece."
        )

    def _attack(self, state: State, seat: Seat, action: Attack, events: list[Event]) -> None:
        piece = self._own_piece(state, seat, action.unit)
        spec = self.spec(piece)
        if spec.range <= 0:
            raise RuleError(f"The {spec.name} cannot attack.")
        if not self.can_attack(piece):
            if spec.category == "artillery" and piece.moved:
                raise RuleError(f"The {self.label(piece)} moved this turn: artillery moves OR attacks.")
            raise RuleError(f"The {self.label(piece)} already attacked this turn (no attack-attack).")
        target = self._at(state, action.target)
        if target is None or target.owner == seat:
            raise RuleError(f"There is no enemy piece on {action.target.upper()}.")
        player = state.players[seat]
        spotter = action.token == "spotter"
        surge = action.token == "surge"
        if action.token and player.tokens.get(action.token, 0) < 1:
            raise RuleError(f"You have no {TOKEN_NAMES[action.token]} token left.")
        if surge and not spec.military:
            raise RuleError("Surge can only be used with military units, not structures.")
        reach_range = spec.range + (1 if spotter else 0)
        distance = manhattan((piece.col, piece.row), (target.col, target.row))
        if distance > reach_range:
            raise RuleError(
                f"{self.label(target)} is {words.count(distance, 'square')} away: out of the {spec.name}'s range of "
                f"{reach_range}."
            )
        piece.attacked = True
        state.actions_left -= 1
        if action.token:
            player.tokens[action.token] -= 1
        combat = Combat(
            attacker=seat, units=[piece.id], target=target.id, attacker_surge=surge, spotter=spotter
        )
        self._declare(state, combat, events)

    def concentrate_units(
        self, state: State, seat: Seat, target: Piece, ready: list[Piece] | None = None
    ) -> list[Piece]:
        """Units that may join a concentrated fire on `target`: military, not tanks or heavy artillery,
        able to attack now and in range."""
        if ready is None:
            ready = self._fire_ready(state, seat)
        return [
            piece
            for piece in ready
            if in_range((piece.col, piece.row), (target.col, target.row), self.spec(piece).range)
        ]

    def _fire_ready(self, state: State, seat: Seat) -> list[Piece]:
        return [
            piece
            for piece in state.pieces
            if piece.owner == seat
            and self.spec(piece).military
            and self.spec(piece).category != "vehicle"
            and piece.kind not in NO_CONCENTRATED_FIRE
            and self.can_attack(piece)
        ]

    def _concentrate_problem(self, state: State) -> str | None:
        if state.concentrated:
            return "Concentrated fire is allowed once per turn."
        if state.actions_left < 2:
            return "Concentrated fire costs 2 actions."
        return None

    def _concentrate(self, state: State, seat: Seat, action: Concentrate, events: list[Event]) -> None:
        problem = self._concentrate_problem(state)
        if problem:
            raise RuleError(problem)
        target = self._at(state, action.target)
        if target is None or target.owner == seat:
            raise RuleError(f"There is no enemy piece on {action.target.upper()}.")
        units = [self._own_piece(state, seat, square) for square in action.units]
        if units[0].id == units[1].id:
            raise RuleError("Concentrated fire takes two different units.")
        allowed = {piece.id for piece in self.concentrate_units(state, seat, target)}
        for piece in units:
            if piece.id not in allowed:
                raise RuleError(
                    f"The {self.label(piece)} cannot join a concentrated fire on {self.label(target)}: "
                    "it must be a unit other than a tank or heavy artillery, able to attack and in range."
                )
        player = state.players[seat]
        if action.surge and player.tokens.get("surge", 0) < 1:
            raise RuleError("You have no Surge token left.")
        for piece in units:
            piece.attacked = True
        state.concentrated = True
        state.actions_left -= 2
        if action.surge:
            player.tokens["surge"] -= 1
        combat = Combat(
            attacker=seat, units=[piece.id for piece in units], target=target.id, attacker_surge=action.surge
        )
        self._declare(state, combat, events)

    def _declare(self, state: State, combat: Combat, events: list[Event]) -> None:
        """'the use of the Surge token must be declared BEFORE any dice are rolled': the attacker's is
        part of the attack; the defender is asked when a Surge could apply."""
        target = self._piece(state, combat.target)
        defender = state.players[target.owner]
        if self.spec(target).military and defender.tokens.get("surge", 0) > 0:
            state.step = "defend"
            state.combat = combat
            attackers = " and ".join(self.label(self._piece(state, pid)) for pid in combat.units)
            surge = " with Surge (+2)" if combat.attacker_surge else ""
            events.append(
                Event(
                    text=f"{state.players[combat.attacker].name}'s {attackers} attack{'s' if len(combat.units) == 1 else ''} "
                    f"{defender.name}'s {self.label(target)}{surge}; {defender.name} may answer with Surge.",
                    urgent=True,  # the defender must answer before the dice
                )
            )
            return
        self._resolve(state, combat, False, events)

    def _piece(self, state: State, piece_id: int) -> Piece:
        return next(piece for piece in state.pieces if piece.id == piece_id)

    def _square_of(self, state: State, piece_id: int) -> str:
        piece = self._piece(state, piece_id)
        return square_name(piece.col, piece.row)

    def _resolve(self, state: State, combat: Combat, defender_surge: bool, events: list[Event]) -> None:
        """ATTACKING 2-3: two D3 each, sums compared; destroyed, destroyed plus one, disabled, or nothing."""
        units = [self._piece(state, pid) for pid in combat.units]
        target = self._piece(state, combat.target)
        attacker, defender = state.players[combat.attacker], state.players[target.owner]
        attack_mod = sum(self.attack_of(piece) for piece in units) + (SURGE if combat.attacker_surge else 0)
        defence_mod = self.defence_of(target) + (SURGE if defender_surge else 0)
        attack_dice = [d3(state.rng), d3(state.rng)]
        defence_dice = [d3(state.rng), d3(state.rng)]
        attack_sum = attack_mod + sum(attack_dice)
        defence_sum = defence_mod + sum(defence_dice)
        who = " and ".join(self.label(piece) for piece in units)
        mods = " + ".join(f"{self.attack_of(piece)}" for piece in units)
        attack_text = (
            f"{mods}{' + Surge 2' if combat.attacker_surge else ''} + dice {attack_dice[0]}+{attack_dice[1]}"
        )
        defence_text = (
            f"{self.defence_of(target)}{' + Surge 2' if defender_surge else ''} + dice "
            f"{defence_dice[0]}+{defence_dice[1]}"
        )
        kind = "concentrated fire" if len(units) == 2 else "attack"
        head = (
            f"{attacker.name}'s {who} {kind} on {defender.name}'s {self.label(target)}"
            f"{' (Spotter +1 range)' if combat.spotter else ''}: "
            f"attack {attack_text} = {attack_sum} vs defence {defence_text} = {defence_sum}: "
        )
        target_name = self.spec(target).name
        target_square = square_name(target.col, target.row)
        destroyed: list[Piece] = []
        if attack_sum > 2 * defence_sum:
            outcome = "destroyed-two"
            destroyed.append(target)
            second = self._splash(state, target)
            if second is not None:
                destroyed.append(second)
                line = (
                    f"more than double: the {target_name} is destroyed and so is the adjacent "
                    f"{self.label(second)}."
                )
            else:
                line = f"more than double: the {target_name} is destroyed (no adjacent unit of equal or lower defence)."
        elif attack_sum > defence_sum:
            outcome = "destroyed"
            destroyed.append(target)
            line = f"the {target_name} is destroyed."
        elif attack_sum >= defence_sum - 1:
            outcome = "disabled"
            line = (
                f"the {target_name} is disabled (-2 attack and defence until "
                f"{'healed' if self.spec(target).category == 'infantry' else 'repaired'})."
                if not target.disabled
                else f"the {target_name} is disabled again (no further effect)."
            )
            target.disabled = True
        else:
            outcome = "no-damage"
            line = f"no damage to the {target_name}."
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
        self._check_victory(state, combat.attacker, destroyed, events)

    def _splash(self, state: State, target: Piece) -> Piece | None:
        """'one adjacent Defender's unit of equal or less Defense strength is also destroyed': the
        strongest such military unit (highest defence, then highest cost, then first square A1 onward)."""
        limit = self.defence_of(target)
        around = set(neighbours((target.col, target.row), state.size))
        candidates = [
            piece
            for piece in state.pieces
            if piece.owner == target.owner
            and piece.id != target.id
            and (piece.col, piece.row) in around
            and self.spec(piece).military
            and self.defence_of(piece) <= limit
        ]
        if not candidates:
            return None
        return min(
            candidates,
            key=lambda p: (-self.defence_of(p), -self.spec(p).gold, p.row, p.col),
        )

    def _check_victory(
        self, state: State, attacker: Seat, destroyed: list[Piece], events: list[Event]
    ) -> None:
        if not destroyed:
            return
        loser = 1 - attacker
        names = [player.name for player in state.players]
        command = next((p for p in destroyed if p.kind in COMMANDS), None)
        if command is not None:
            state.reason = (
                f"{names[attacker]} wins by destroying {names[loser]}'s {self.spec(command).name} "
                f"in round {state.round}"
            )
        elif any(self.spec(p).military for p in destroyed) and self.military_units(state, loser) == 0:
            # WINNING: '... until one side's military units are destroyed'; units in training count.
            state.reason = (
                f"{names[attacker]} wins by destroying {names[loser]}'s last military unit in round "
                f"{state.round}: {names[loser]} has no military units left, on the board or in training"
            )
        else:
            return
        state.step = "over"
        state.winner = attacker
        state.picking = None
        events.append(Event(text=f"Game over: {state.reason}.", urgent=True))

    # ---- repair and heal -------------------------------------------------------------------------
    def _repair(self, state: State, seat: Seat, action: Repair, events: list[Event]) -> None:
        piece = self._own_piece(state, seat, action.square)
        spec = self.spec(piece)
        if spec.category == "infantry":
            raise RuleError(
                f"The {spec.name} is infantry: infantry are healed with a Heal token, not repaired."
            )
        if not piece.disabled:
            raise RuleError(f"The {self.label(piece)} is not disabled.")
        player = state.players[seat]
        if player.crew < 1:
            raise RuleError("Repairing costs 1 crew; you have none.")
        player.crew -= 1
        piece.disabled = False
        state.actions_left -= 1
        events.append(Event(text=f"{player.name} repaired the {self.label(piece)} with 1 crew."))

    def _heal(self, state: State, seat: Seat, action: Heal, events: list[Event]) -> None:
        piece = self._own_piece(state, seat, action.square)
        spec = self.spec(piece)
        if spec.category != "infantry":
            raise RuleError(f"Heal tokens heal infantry only; the {spec.name} is repaired with 1 crew.")
        if not piece.disabled:
            raise RuleError(f"The {self.label(piece)} is not disabled.")
        player = state.players[seat]
        if player.tokens.get("heal", 0) < 1:
            raise RuleError("You have no Heal token left.")
        player.tokens["heal"] -= 1
        piece.disabled = False
        state.actions_left -= 1
        events.append(Event(text=f"{player.name} healed the {self.label(piece)} with a Heal token."))

    # ---- the choice list ----------------------------------------------------------------------
    def _legal_actions(self, state: State, seat: Seat) -> list[Choice]:
        if state.step == "defend":
            return self._defend_choices(state)
        if state.step != "play":
            return []
        player = state.players[seat]
        if state.picking is not None:
            return self._picking_choices(state, seat)
        choices: list[Choice] = []
        if state.gold_left > 0:
            choices.append(
                _choice(
                    key="mine",
                    label=f"Mine gold (roll a D3; {state.gold_left} mining left)",
                    action={"kind": "mine"},
                    group="Economy",
                    style="success",
                )
            )
        choices.append(
            _choice(key="hire", label="Hire a crew (+1 crew)", action={"kind": "hire"}, group="Economy")
        )
        owned = {piece.kind for piece in state.pieces if piece.owner == seat}
        room: dict[str, bool] = {}
        for item in self.cards.order:
            if self.build_problem(state, seat, item, owned, room) is None:
                spec = self.cards[item]
                verb = "Train" if spec.crew == 0 else "Commission"
                cost = f"{spec.gold} gold" + (" + 1 crew" if spec.crew else "")
                choices.append(
                    _choice(
                        key=f"pick:{item}",
                        label=f"{verb} {spec.name} ({cost})…",
                        action={"kind": "pick", "item": item},
                        group="Build",
                    )
                )
        obstacles = Obstacles(state, self.cards)
        road = player.tokens.get("open_road", 0) > 0
        enemies = [piece for piece in state.pieces if piece.owner != seat]
        mine = sorted((piece for piece in state.pieces if piece.owner == seat), key=lambda p: (p.row, p.col))
        for piece in mine:
            if not self.can_move(piece):
                continue
            plain, extra = self._moves(state, piece, obstacles, road)
            here = square_name(piece.col, piece.row)
            name = self.spec(piece).name
            for squares, flag in ((plain, False), (extra, True)):
                for square in sorted(squares, key=lambda s: (s[1], s[0])):
                    there = square_name(*square)
                    action: dict[str, Any] = {"kind": "move", "unit": here, "to": there, "open_road": flag}
                    choices.append(
                        _choice(
                            key=f"mv:{here}:{there}" + (":r" if flag else ""),
                            label=f"{name} {here} → move {there}" + (" (Open Road)" if flag else ""),
                            action=action,
                            group="Move",
                        )
                    )
        for piece in mine:
            if not self.can_attack(piece):
                continue
            spec = self.spec(piece)
            here = square_name(piece.col, piece.row)
            for target in sorted(enemies, key=lambda p: (p.row, p.col)):
                distance = manhattan((piece.col, piece.row), (target.col, target.row))
                there = square_name(target.col, target.row)
                base = f"{spec.name} {here} → attack {self.spec(target).name} {there}"
                tokens: list[str | None] = []
                if distance <= spec.range:
                    tokens.append(None)
                    if spec.military and player.tokens.get("surge", 0) > 0:
                        tokens.append("surge")
                elif distance == spec.range + 1 and player.tokens.get("spotter", 0) > 0:
                    tokens.append("spotter")
                for token in tokens:
                    suffix = {None: "", "surge": " (Surge +2)", "spotter": " (Spotter +1 range)"}[token]
                    choices.append(
                        _choice(
                            key=f"at:{here}:{there}" + (f":{token[:2]}" if token else ""),
                            label=base + suffix,
                            action={"kind": "attack", "unit": here, "target": there, "token": token},
                            group="Attack",
                            style="danger",
                        )
                    )
        ready = self._fire_ready(state, seat) if self._concentrate_problem(state) is None else []
        if len(ready) >= 2:
            for target in sorted(enemies, key=lambda p: (p.row, p.col)):
                if len(self.concentrate_units(state, seat, target, ready)) >= 2:
                    there = square_name(target.col, target.row)
                    choices.append(
                        _choice(
                            key=f"aim:{there}",
                            label=f"Concentrated fire on {self.spec(target).name} {there} (2 actions)…",
                            action={"kind": "aim", "target": there},
                            group="Concentrated fire",
                            style="danger",
                        )
                    )
        for piece in mine:
            if not piece.disabled:
                continue
            here = square_name(piece.col, piece.row)
            name = self.spec(piece).name
            if self.spec(piece).category == "infantry":
                if player.tokens.get("heal", 0) > 0:
                    choices.append(
                        _choice(
                            key=f"heal:{here}",
                            label=f"Heal {name} {here} (Heal token)",
                            action={"kind": "heal", "square": here},
                            group="Repair",
                            style="success",
                        )
                    )
            elif player.crew > 0:
                choices.append(
                    _choice(
                        key=f"rep:{here}",
                        label=f"Repair {name} {here} (1 crew)",
                        action={"kind": "repair", "square": here},
                        group="Repair",
                        style="success",
                    )
                )
        choices.append(
            _choice(
                key="end",
                label=f"End turn ({words.count(state.actions_left, 'action')} unused)",
                action={"kind": "end_turn"},
                group="Turn",
                style="primary",
            )
        )
        return choices

    def _defend_choices(self, state: State) -> list[Choice]:
        combat = state.combat
        assert combat is not None
        target = self._piece(state, combat.target)
        left = state.players[target.owner].tokens.get("surge", 0)
        return [
            _choice(
                key="def:surge",
                label=f"Surge: +2 defence for the {self.label(target)} ({left} left)",
                action={"kind": "defend", "surge": True},
                group="Defend",
                style="danger",
            ),
            _choice(
                key="def:none",
                label="No Surge: roll the dice",
                action={"kind": "defend", "surge": False},
                group="Defend",
                style="primary",
            ),
        ]

    def _picking_choices(self, state: State, seat: Seat) -> list[Choice]:
        picking = state.picking
        assert picking is not None
        choices: list[Choice] = []
        what, _, value = picking.partition(":")
        if what == "build":
            spec = self.cards[value]
            for square in self.build_squares(state, seat, value):
                there = square_name(*square)
                choices.append(
                    _choice(
                        key=f"build:{value}:{there}",
                        label=f"{spec.name} at {there}",
                        action={"kind": "build", "item": value, "square": there},
                        group=f"Where to place the {spec.name}",
                        style="success",
                    )
                )
        else:
            target = self._at(state, value)
            assert target is not None
            units = sorted(self.concentrate_units(state, seat, target), key=lambda p: (p.row, p.col))
            surge = state.players[seat].tokens.get("surge", 0) > 0
            for index, first in enumerate(units):
                for second in units[index + 1 :]:
                    pair = [square_name(first.col, first.row), square_name(second.col, second.row)]
                    base = f"{self.label(first)} + {self.label(second)} → {self.spec(target).name} {value}"
                    for flag in (False, True) if surge else (False,):
                        choices.append(
                            _choice(
                                key=f"cf:{pair[0]}:{pair[1]}:{value}" + (":su" if flag else ""),
                                label=(base + (" (Surge +2)" if flag else ""))[:100],
                                action={"kind": "concentrate", "units": pair, "target": value, "surge": flag},
                                group="Concentrated fire",
                                style="danger",
                            )
                        )
        choices.append(_choice(key="back", label="Back", action={"kind": "back"}, group="Turn"))
        return choices

    # ---- apply ------------------------------------------------------------------------------------
    def _apply(self, state: State, seat: Seat, action: Any) -> list[Event]:
        events: list[Event] = []
        if state.step == "defend":
            if not isinstance(action, Defend):
                raise RuleError("Decide first whether to play a Surge token against the attack.")
            combat = state.combat
            assert combat is not None
            defender = state.players[seat]
            if action.surge:
                if defender.tokens.get("surge", 0) < 1:
                    raise RuleError("You have no Surge token left.")
                defender.tokens["surge"] -= 1
            self._resolve(state, combat, action.surge, events)
            self._after_action(state, events)
            return events
        if isinstance(action, Defend):
            raise RuleError("There is no attack to answer.")
        player = state.players[seat]
        match action:
            case Pick(item=item):
                if state.picking is not None:
                    raise RuleError("Choose where to place the piece you picked first, or go Back.")
                problem = self.build_problem(state, seat, item)
                if problem:
                    raise RuleError(problem)
                state.picking = f"build:{item}"
                return events
            case Aim(target=square):
                problem = self._concentrate_problem(state)
                target = self._at(state, square)
                if problem is None and (target is None or target.owner == seat):
                    problem = f"There is no enemy piece on {square.upper()}."
                if (
                    problem is None
                    and target is not None
                    and len(self.concentrate_units(state, seat, target)) < 2
                ):
                    problem = "Concentrated fire needs two of your units able to attack that piece."
                if problem:
                    raise RuleError(problem)
                assert target is not None
                state.picking = f"aim:{square_name(target.col, target.row)}"
                return events
            case Back():
                if state.picking is None:
                    raise RuleError("There is nothing to go back from.")
                state.picking = None
                return events
            case EndTurn():
                state.picking = None
                left = state.actions_left
                events.append(
                    Event(
                        text=f"{player.name} ended the turn"
                        + (f" ({words.count(left, 'action')} unused)." if left else ".")
                    )
                )
                self._end_turn(state, events)
                return events
            case Mine():
                if state.gold_left <= 0:
                    raise RuleError("The Gold Mined marker is at 0: no gold is left to mine.")
                roll = d3(state.rng)
                state.gold_left -= 1
                player.gold += roll
                player.mined += roll
                state.actions_left -= 1
                events.append(
                    Event(
                        text=f"{player.name} mined gold: rolled {roll}, now {player.gold} gold "
                        f"({state.gold_left} mining left).",
                        reveals=True,
                    )
                )
            case Hire():
                player.crew += 1
                state.actions_left -= 1
                events.append(Event(text=f"{player.name} hired a crew (now {player.crew})."))
            case BuildAction():
                self._build(state, seat, action, events)
            case Move():
                self._move(state, seat, action, events)
            case Attack():
                self._attack(state, seat, action, events)
            case Concentrate():
                self._concentrate(state, seat, action, events)
            case Repair():
                self._repair(state, seat, action, events)
            case Heal():
                self._heal(state, seat, action, events)
            case _:
                raise RuleError("That is not something you can do now.")
        state.picking = None
        self._after_action(state, events)
        return events

    # ---- views and result ------------------------------------------------------------------------
    def _view(self, state: State, seat: Seat | None) -> IronAndBrassView:
        obstacles = Obstacles(state, self.cards)
        playing = state.current if state.step == "play" else None
        pieces = []
        for piece in sorted(state.pieces, key=lambda p: (p.row, p.col)):
            spec = self.spec(piece)
            reach_squares = (
                sorted(reach(state, self.cards, piece, spec.move, obstacles), key=lambda s: (s[1], s[0]))
                if spec.military
                else []
            )
            pieces.append(
                PieceView(
                    square=square_name(piece.col, piece.row),
                    kind=piece.kind,
                    name=spec.name,
                    code=spec.code,
                    category=spec.category,
                    owner=piece.owner,
                    disabled=piece.disabled,
                    attack=self.attack_of(piece),
                    range=spec.range,
                    move=spec.move,
                    defence=self.defence_of(piece),
                    can_move=piece.owner == playing and self.can_move(piece),
                    can_attack=piece.owner == playing and self.can_attack(piece),
                    reach=[square_name(*square) for square in reach_squares],
                )
            )
        combat = None
        if state.combat is not None:
            combat = CombatView(
                attacker=state.combat.attacker,
                units=[
                    square_name(p.col, p.row) for p in (self._piece(state, pid) for pid in state.combat.units)
                ],
                target=self._square_of(state, state.combat.target),
                attacker_surge=state.combat.attacker_surge,
                spotter=state.combat.spotter,
            )
        result = self._result(state)
        return IronAndBrassView(
            game=self.info.id,
            seat=seat,
            players=[player.name for player in state.players],
            to_act=sorted(self.to_act(state)),
            headline=self._headline(state),
            finished=result is not None,
            topic=rules_topic(state),
            size=state.size,
            round=state.round,
            max_rounds=state.max_rounds,
            current=state.current if state.step != "over" else None,
            first=state.first,
            actions_left=state.actions_left,
            gold_left=state.gold_left,
            opening=state.opening,
            pieces=pieces,
            builds=[
                BuildView(
                    square=square_name(build.col, build.row),
                    kind=build.kind,
                    name=self.spec(build).name,
                    code=self.spec(build).code,
                    owner=build.owner,
                )
                for build in state.builds
            ],
            seats=[
                SeatView(
                    seat=index,
                    name=player.name,
                    side=SIDES[index],
                    gold=player.gold,
                    crew=player.crew,
                    tokens=dict(player.tokens),
                    units=sum(1 for p in state.pieces if p.owner == index and self.spec(p).military),
                    structures=sum(1 for p in state.pieces if p.owner == index and not self.spec(p).military),
                    mined=player.mined,
                    spent=player.spent,
                )
                for index, player in enumerate(state.players)
            ],
            items=[
                ItemView(
                    id=spec.id,
                    name=spec.name,
                    code=spec.code,
                    category=spec.category,
                    token=spec.token,
                    count=spec.count,
                )
                for spec in (self.cards[item] for item in self.cards.order)
            ],
            combat=combat,
            last_combat=state.last_combat,
            picking=state.picking
            if seat is not None and seat == state.current and state.step == "play"
            else None,
            winner=state.winner,
            reason=state.reason,
        )

    def _headline(self, state: State) -> str:
        if state.step == "over":
            return f"Game over - {state.reason}"
        name = state.players[state.current].name
        if state.step == "defend":
            defender = state.players[1 - state.current].name
            return f"Round {state.round} - {defender} decides on Surge against {name}'s attack"
        return f"Round {state.round} - {name}: {words.count(state.actions_left, 'action')} left"

    def _result(self, state: State) -> Result | None:
        if state.step != "over":
            return None
        breakdown = {
            seat: {
                "worth": self._worth(state, seat),
                "units": sum(1 for p in state.pieces if p.owner == seat and self.spec(p).military),
                "structures": sum(1 for p in state.pieces if p.owner == seat and not self.spec(p).military),
                "gold": player.gold,
                "mined": player.mined,
            }
            for seat, player in enumerate(state.players)
        }
        if state.winner is None:
            return Result(
                scores={0: 0, 1: 0},
                ranking=[[0, 1]],
                reason=words.sentence(state.reason),
                breakdown=breakdown,
                scored=False,
            )
        winner = state.winner
        return Result(
            scores={winner: 1, 1 - winner: 0},
            ranking=[[winner], [1 - winner]],
            reason=words.sentence(state.reason),
            breakdown=breakdown,
            scored=False,
        )


def rules_topic(state: State) -> str:
    """The `/rules` topic (data/iron_and_brass/rules.md) of the current step, for the turn message."""
    if state.step == "over":
        return "winning"
    if state.step == "defend":
        return "attacking"
    if state.picking is not None and state.picking.startswith("build:"):
        return "building"
    if state.picking is not None and state.picking.startswith("aim:"):
        return "concentrated-fire"
    return "actions"

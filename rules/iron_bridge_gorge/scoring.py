"""Scoring: the Scoring Step at each round's end (majorities of resource types) and the end of the game
(most VP wins; ties broken by coins minus an unpaid loan, then by resources in play)."""

from __future__ import annotations

from rules import words
from rules.core import Event, Result, Seat
from rules.iron_bridge_gorge.data import TYPE_NAMES, rules_catalogue
from rules.iron_bridge_gorge.moves.bank import LOAN
from rules.iron_bridge_gorge.state import IronBridgeGorgeState, PlayerState

State = IronBridgeGorgeState

MAJORITY_VP: dict[str, int] = {"F": 2, "I": 2, "T": 2, "C": 1, "L": 1}
"""SCORING STEP: most Fuel, Iron, Transportation 2 VP each; most Clay, Limestone 1 VP each."""


def score(state: State, events: list[Event]) -> None:
    """SCORING STEP: the player with the most resources of a type scores; a tie for most scores nothing."""
    cards = rules_catalogue()
    parts: list[str] = []
    scored = False
    for card_type, points in MAJORITY_VP.items():
        counts = [
            sum(1 for card in player.in_play if cards[card].type == card_type) for player in state.players
        ]
        best = max(counts)
        if best == 0:
            continue
        leaders = [seat for seat, count in enumerate(counts) if count == best]
        if len(leaders) > 1:
            parts.append(f"{TYPE_NAMES[card_type]} tied, no one scores")
            continue
        state.players[leaders[0]].vp += points
        scored = True
        parts.append(f"{state.players[leaders[0]].name} +{points} VP for most {TYPE_NAMES[card_type]}")
    # VP handed out at the round's end are news for everyone (the next round's cards, event, revenue
    # and bids follow in the same move); a step where nobody scores is not.
    events.append(
        Event(text=f"Scoring: {'; '.join(parts) if parts else 'no one has resources yet'}.", urgent=scored)
    )


def _key(player: PlayerState) -> tuple[int, int, int]:
    return (player.vp, player.coins - (LOAN if player.loan else 0), len(player.in_play))


def _ranking(players: list[PlayerState]) -> tuple[list[Seat], list[list[Seat]]]:
    seats = sorted(range(len(players)), key=lambda seat: _key(players[seat]), reverse=True)
    ranking: list[list[Seat]] = []
    for seat in seats:
        if ranking and _key(players[ranking[-1][0]]) == _key(players[seat]):
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return seats, ranking


def _reason(players: list[PlayerState], seats: list[Seat], winners: list[Seat]) -> str:
    top = players[winners[0]]
    names = words.listed(players[seat].name for seat in winners)
    best = _key(top)
    coins = f"{words.count(best[1], 'coin')} after any loan"
    resources = f"{words.count(best[2], 'resource')} in play"
    if len(winners) > 1:
        return f"{names} share the win with {top.vp} VP, {coins} and {resources} each."
    rivals = [seat for seat in seats[1:] if players[seat].vp == top.vp]
    tied = words.listed(players[seat].name for seat in [winners[0], *rivals])
    if not rivals:
        second = seats[1] if len(seats) > 1 else None
        if second is None:
            return f"{names} wins with {top.vp} VP."
        return f"{names} wins with the most VP, {top.vp} to {players[second].name}'s {players[second].vp}."
    if any(_key(players[seat])[1] == best[1] for seat in rivals):
        most = max(_key(players[seat])[2] for seat in rivals)
        return (
            f"{tied} tie on {top.vp} VP and {coins}; {names} wins with more resources in play, "
            f"{best[2]} to {most}."
        )
    most = max(_key(players[seat])[1] for seat in rivals)
    return f"{tied} tie on {top.vp} VP; {names} wins on coins after any loan, {best[1]} to {most}."


def result(state: State) -> Result | None:
    """Most VP wins; ties are broken by coins minus an unpaid loan, then by resources in play."""
    if state.step != "over":
        return None
    players = state.players
    seats, ranking = _ranking(players)
    return Result(
        scores={seat: player.vp for seat, player in enumerate(players)},
        ranking=ranking,
        reason=_reason(players, seats, ranking[0]),
        breakdown={
            seat: {
                "vp": player.vp,
                "coins": player.coins,
                "loan": LOAN if player.loan else 0,
                "resources": len(player.in_play),
            }
            for seat, player in enumerate(players)
        },
    )

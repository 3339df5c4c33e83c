"""The end of City Heroes: each player's score, the ranking and the `Result` (if the city's prestige
is below the rival's, everybody loses).

The guide counts the end in influence points (influence + 1 per natural resource + 2 per good + 1 per 3
ducats); the reason calls that total the *score*, as the pictures' Score and Total columns do, so it is
never read as the influence a player holds (the Infl column, often 0 at the end)."""

from __future__ import annotations

from rules import words
from rules.city_heroes.data import GOODS, NATURALS
from rules.city_heroes.moves.common import owned
from rules.city_heroes.state import CityHeroesState, Tile
from rules.core import Result, Seat

State = CityHeroesState


def score(state: State, seat: Seat, mine: list[Tile] | None = None) -> dict[str, int]:
    """The seat's score and its parts; `mine`: its tiles (`owned`), when the caller has them."""
    player = state.players[seat]
    naturals = sum(player.stock[name] for name in NATURALS)
    weapons_out = sum(tile.garrison + tile.spent for tile in (owned(state, seat) if mine is None else mine))
    goods = sum(player.stock[name] for name in GOODS) + weapons_out
    total = player.influence + naturals + 2 * goods + player.ducats // 3
    return {
        "score": total,
        "influence": player.influence,
        "naturals": naturals,
        "goods": goods,
        "ducats": player.ducats,
    }


def _ranking(seats: list[Seat], key: dict[Seat, tuple[int, int]]) -> list[list[Seat]]:
    ranking: list[list[Seat]] = []
    for seat in seats:
        if ranking and key[ranking[-1][0]] == key[seat]:
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return ranking


def _how(
    state: State, seats: list[Seat], ranking: list[list[Seat]], breakdown: dict[Seat, dict[str, int]]
) -> str:
    """Who wins among the players, and why, when the city has not lost to the rival."""
    name = {seat: state.players[seat].name for seat in seats}
    names = words.listed(name[seat] for seat in ranking[0])
    best = breakdown[ranking[0][0]]["score"]
    tied = [seat for seat in seats if breakdown[seat]["score"] == best]
    ducats = breakdown[ranking[0][0]]["ducats"]
    if len(ranking[0]) > 1:
        return f"{names} share the win with a score of {best} and {words.count(ducats, 'ducat')} each"
    if len(tied) > 1:
        others = [seat for seat in tied if seat not in ranking[0]]
        return (
            f"{words.listed(name[seat] for seat in tied)} tie on a score of {best} and {names} wins "
            f"on ducats, {ducats} to {breakdown[others[0]]['ducats']}"
        )
    if len(seats) > 1:
        second = ranking[1][0]
        return f"{names} wins with the highest score, {best} to {name[second]}'s {breakdown[second]['score']}"
    return f"{names} wins with a score of {best}"


def result(state: State) -> Result | None:
    """Most influence wins (1 per natural resource, 2 per good, 1 per 3 ducats); ties: more ducats,
    then shared. If the city's prestige is below the rival's, everybody loses."""
    if state.phase != "over":
        return None
    breakdown = {seat: score(state, seat) for seat in range(len(state.players))}
    key = {seat: (line["score"], line["ducats"]) for seat, line in breakdown.items()}
    seats = sorted(range(len(state.players)), key=key.__getitem__, reverse=True)
    ranking = _ranking(seats, key)
    if state.prestige < state.rival_prestige:
        names = words.listed(state.players[seat].name for seat in ranking[0])
        best = breakdown[ranking[0][0]]["score"]
        reason = (
            f"The city's prestige {state.prestige} is below the rival's {state.rival_prestige}, "
            f"so everybody loses (highest score: {names}, {best})."
        )
    else:
        city = f"The city's prestige {state.prestige} beats the rival's {state.rival_prestige}"
        if state.prestige == state.rival_prestige:
            # Project decision (data/city_heroes/README.md): the guide's 'less Prestige than your
            # rival, all players lose' rules a tie, so a tie does not lose.
            city = (
                f"The city's prestige {state.prestige} ties the rival's {state.rival_prestige}, "
                "and a tie is not less prestige, so nobody loses to the rival"
            )
        reason = f"{city}; {_how(state, seats, ranking, breakdown)}."
    for line in breakdown.values():
        line["city_won"] = int(state.prestige >= state.rival_prestige)
    return Result(
        scores={seat: line["score"] for seat, line in breakdown.items()},
        ranking=ranking,
        reason=reason,
        breakdown=breakdown,
        no_winner=state.prestige < state.rival_prestige,
    )

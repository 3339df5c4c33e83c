"""Iron & Brass's `/card` catalogue: every unit and structure of `data/iron_and_brass/pieces.json`, and
the four advantages any advantage token may be played for, as `CatalogueEntry` items."""

from __future__ import annotations

from functools import cache

from rules import words
from rules.core import CatalogueEntry
from rules.help import unique_names
from rules.iron_and_brass.data import FACTORY, TOKEN_NAMES, TOKENS, Catalogue, PieceSpec, catalogue

KINDS = {
    "infantry": "Infantry unit",
    "artillery": "Artillery unit",
    "vehicle": "Vehicle",
    "structure": "Structure",
}
TOKEN_TEXT = {
    "spotter": "Adds +1 range to an attack.",
    "surge": "Adds +2 to an attack or defence roll; military units only, declared before the dice.",
    "open_road": "Adds +1 movement to any unit's move.",
    "heal": "Heals 1 disabled infantry unit (Skirmisher Patrol, Mechanized Gunner or Iron Infantry).",
}


def _piece(pieces: Catalogue, piece: PieceSpec) -> CatalogueEntry:
    cost = f"{piece.gold} gold" + (" + 1 crew" if piece.crew else "")
    requires = ", ".join(pieces[other].name for other in piece.requires) or "nothing"
    details = [
        ("Token", f"`{piece.token}`"),
        ("Cost", cost),
        ("Needs built first", requires),
        ("Attack", f"+{piece.attack}, range {piece.range}" if piece.attack else "does not attack"),
        ("Movement", str(piece.move) if piece.move else "does not move"),
        ("Defence", f"+{piece.defence}"),
        ("Per side", str(piece.count)),
    ]
    if piece.category in FACTORY:
        details.append(("Appears next to", pieces[FACTORY[piece.category]].name))
    if piece.category == "artillery":
        details.append(("Turn", "moves OR attacks, not both"))
    if piece.category == "vehicle" or piece.id == "heavy-artillery":
        details.append(("Concentrated fire", "cannot join"))
    if not piece.buildable:
        details.append(("Setup", "placed at the start; never built"))
    if piece.upgrades:
        details.append(("Upgrade", f"built on the {pieces[piece.upgrades].name}'s square, replacing it"))
    if piece.note:
        details.append(("Note", piece.note))
    stats = f"attack +{piece.attack} range {piece.range}, " if piece.attack else ""
    summary = f"{cost}; needs {requires}; {stats}move {piece.move}, defence +{piece.defence}."
    return CatalogueEntry(
        name=piece.name,
        kind=KINDS[piece.category],
        summary=summary,
        details=details,
        designed=piece.designed,
    )


def _token(pieces: Catalogue, token: str) -> CatalogueEntry:
    """One advantage listed on the tokens: 'Each of these tokens may be used once per game combined with
    a normal action ... for any 1 of the actions listed on the token', so any token plays it."""
    count = words.count(pieces.setup.advantage_tokens, "advantage token")
    return CatalogueEntry(
        name=TOKEN_NAMES[token],
        kind="Advantage token",
        summary=TOKEN_TEXT[token]
        + " Any advantage token can be played for it, once per game, with a normal action.",
        details=[
            ("Effect", TOKEN_TEXT[token]),
            (
                "Use",
                "play any one of your advantage tokens for it, together with one normal action; one token per action",
            ),
            ("Per player", f"{count}, each playable once for any of Spotter, Surge, Open Road or Heal"),
        ],
    )


@cache
def entries() -> tuple[CatalogueEntry, ...]:
    """Every piece in file order, then the advantage tokens."""
    pieces = catalogue()
    found = [_piece(pieces, pieces[piece_id]) for piece_id in pieces.order]
    found += [_token(pieces, token) for token in TOKENS]
    return tuple(unique_names(found))

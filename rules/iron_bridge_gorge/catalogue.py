"""Iron Bridge Gorge's `/card` catalogue: every card of `data/iron_bridge_gorge/cards.json` (the rule
text's card list, nothing designed) as a `CatalogueEntry`."""

from __future__ import annotations

from functools import cache

from rules.core import CatalogueEntry
from rules.help import plural, unique_names
from rules.iron_bridge_gorge.data import TYPE_NAMES, CardSpec, Catalogue, catalogue

SKILL_NAMES = {"normal": "none", "unskilled": "U (unskilled)", "skilled": "S (skilled)"}
TAG_NOTES = {
    "mine": "A mine: earns nothing during Flooding (unless Steam Pumping Engines are in play).",
    "iron-mine": "An iron mine: +1 revenue with Steam Pumping Engines, +1 with Long Wall Mining.",
    "water-powered": "Earns nothing during a Drought or Freeze.",
    "build-discount": "Your other resources cost 1 coin less to build (does not stack).",
    "ignores-worker-shortage": "You are unaffected by Worker Shortages.",
}


def _entry(cards: Catalogue, card: CardSpec) -> CatalogueEntry:
    requires = ", ".join(cards[other].label for other in card.requires) or "none"
    needed_by = sorted(other.name for other in cards.cards.values() if card.id in other.requires)
    details = [
        ("Type", f"{card.type} {TYPE_NAMES[card.type]}"),
        ("Mark", SKILL_NAMES[card.skill]),
        ("Build cost", plural(card.base_cost, "coin")),
        ("Revenue", plural(card.revenue, "coin")),
        ("Requirements", f"{requires} (1 coin per missing one, each revenue step)"),
        ("Copies in the deck", str(card.count)),
    ]
    if card.product:
        details.append(("Called", f"{card.product!r} in other cards' requirements"))
    if needed_by:
        details.append(("Required by", ", ".join(needed_by)))
    if card.needs_in_play:
        details.append(
            ("To build", "needs your " + ", ".join(cards[other].name for other in card.needs_in_play))
        )
    if card.award_vp:
        details.append(("Award", f"{card.award_vp} VP once, when built"))
    for tag in card.tags:
        details.append(("Effect", TAG_NOTES[tag]))
    if card.note:
        details.append(("Note", card.note))
    summary = f"{TYPE_NAMES[card.type]}; build {card.base_cost}, revenue {card.revenue}; requires {requires}"
    if card.award_vp:
        summary += f"; {card.award_vp} VP when built"
    return CatalogueEntry(
        name=card.name,
        kind=f"{TYPE_NAMES[card.type]} resource",
        summary=summary + ".",
        details=details,
        designed=False,
    )


@cache
def entries() -> tuple[CatalogueEntry, ...]:
    """One entry per card of the card list, in its order."""
    cards = catalogue()
    return tuple(unique_names([_entry(cards, cards[card_id]) for card_id in cards.order]))

"""Reading the trade bundles players type into the composer ('3 coins, Blast Furnace, 2 stone').

Pure text work against a game's `TradeForm`: the goods a side can move and, where the proposer may
know it, how many that side holds. A bundle that names something unknown, ambiguous or more than is
held is refused with a sentence saying what would work; the rules core still judges the whole offer.
"""

from __future__ import annotations

import re

from bot.app.text import escape_text
from rules import words
from rules.core import TradeForm, TradeGood

NOTHING = {"", "nothing", "none", "-", "0", "no"}
MAX_LISTED = 12


class BundleError(ValueError):
    """A bundle that cannot be read; the message is the friendly sentence shown to the player."""


def parse_bundle(text: str, goods: list[TradeGood], *, whose: str) -> dict[str, int]:
    """'2 coins, blast furnace x2, 1 stone' -> {'coins': 2, 'hand:blast_furnace': 2, 'stone': 1}."""
    bundle: dict[str, int] = {}
    for part in re.split(r"[,;\n+]+|\band\b", text.strip(), flags=re.IGNORECASE):
        part = part.strip().rstrip(".")
        if part.lower() in NOTHING:
            continue
        count, name = _count_and_name(part)
        good = _find(name, goods, whose=whose)
        bundle[good.key] = bundle.get(good.key, 0) + count
        if good.most is not None and bundle[good.key] > good.most:
            raise BundleError(
                f"{escape_text(whose)} {'have' if whose == 'You' else 'has'} only {_held(good.most, good.label)}."
            )
    return bundle


def _count_and_name(part: str) -> tuple[int, str]:
    match = re.fullmatch(r"(\d+)\s*[x×]?\s+(.+)|(.+?)\s*[x×]\s*(\d+)", part, flags=re.IGNORECASE)
    if match is None:
        return 1, part
    count_text, name = (match[1], match[2]) if match[1] else (match[4], match[3])
    count = int(count_text)
    if not 0 < count <= 10_000:
        raise BundleError(f"{count} is not an amount that can be traded.")
    return count, name.strip()


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def _find(name: str, goods: list[TradeGood], *, whose: str) -> TradeGood:
    wanted = _key(name)
    singular = wanted[:-1] if wanted.endswith("s") else wanted
    for test in (
        lambda good: (
            wanted in (_key(good.label), _key(good.key)) or singular in (_key(good.label), _key(good.key))
        ),
        lambda good: _key(good.label).startswith(wanted) or _key(good.label).startswith(singular),
        lambda good: wanted in _key(good.label),
    ):
        found = [good for good in goods if test(good)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            options = ", ".join(good.label for good in found[:5])
            raise BundleError(f"{escape_text(repr(name[:40]))} could be {options}: write more of the name.")
    raise BundleError(
        f"{escape_text(repr(name[:40]))} is not something {whose.lower() if whose == 'You' else escape_text(whose)}"
        f" can trade. {menu(goods)}"
    )


def menu(goods: list[TradeGood]) -> str:
    """What a side can trade, in one line: held amounts where known."""
    shown = [good for good in goods if good.most is None or good.most > 0]
    known = [_held(good.most, good.label) for good in shown if good.most is not None]
    hidden = [good.label for good in shown if good.most is None]
    parts = known[:MAX_LISTED]
    if len(known) > MAX_LISTED:
        parts.append(f"… and {len(known) - MAX_LISTED} more")
    text = "Available: " + (", ".join(parts) or "nothing")
    if hidden:
        text += "; or name any card they might hold in hand (e.g. " + ", ".join(hidden[:3]) + ")"
    return text + "."


def _held(most: int, label: str) -> str:
    """'1 coin', '3 coins', '2 stone': a plain good (a lower-case label) counted by the words helper; a
    named card ('Iron Ore Mine (from hand)') keeps its name whole after the number."""
    return words.count(most, label) if label.islower() else f"{most} {label}"


def describe(form: TradeForm, partner: int | None = None) -> str:
    """The composer's explanation: what you may give, and what you may ask of `partner` (or of each)."""
    others = [p for p in form.partners if partner is None or p.seat == partner]
    lines = [f"**You can give:** {menu(form.gives)}"]
    lines += [f"**You can ask {escape_text(other.name)} for:** {menu(other.asks)}" for other in others]
    if form.note:
        lines.append(form.note)
    return "\n".join(lines)

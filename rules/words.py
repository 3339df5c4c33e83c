"""Plurals, articles and lists for every line a game writes: "1 coin", "an Arsenal", "a, b and c".

A thin wrapper over `inflect` (pure Python, no I/O, so the rules core stays pure), with the few
functions the games need and the project's own nouns:

- `count(3, "coin")` -> "3 coins", `count(1, "coin")` -> "1 coin", `count(0, "coin")` -> "0 coins".
  A noun given in the plural is made singular for one: `count(1, "weapons")` -> "1 weapon" (City Heroes
  names its goods by their plural keys).
- `plural("coin", n)`: the noun alone, as `count` would put it.
- `a("Arsenal")` -> "an Arsenal", `a("Foundry")` -> "a Foundry"; `article(word)` is "a" or "an".
- `listed(["a", "b", "c"])` -> "a, b and c" (no serial comma, as the games have always written).
- `sentences(parts)`: clauses joined with "; " into one sentence, without a doubled full stop.

Uncountable game terms (`UNCOUNTABLE`) never take an s: "3 ore", "1 steel". Decided per term:

- raw materials and metals read as masses: ore, steel, iron, gold, stone, wheat, timber, coal, salt,
  clay, lime, bitumen, jewellery, glow moss;
- skills, scores and tracks: science (City of Iron's research points), work and distance (its card
  skills: "2 work"), influence, prestige, damage, movement, range, attack, defence, income, revenue, and
  VP (an abbreviation read "victory points": "1 VP", "5 VP");
- crew (Iron & Brass: "2 crew", a group noun used as a count of people);
- names that are the same for one and many: Headquarters, Barracks, Steam Works, Iron Infantry, Heavy
  Artillery ("2 Barracks", "1 Headquarters").

Countable resources with plural keys are countable: "1 weapon", "3 tools", "1 plank" (City Heroes),
"1 Turnip", "2 Srikas" (City of Iron goods). inflect reads a capital as a proper name ("Foundrys"), so
capitalised names are inflected in lower case and given their capitals back ("2 Foundries").

inflect is imported on first use: it takes a second or two to load, which the bot should not pay at
start-up for a game nobody plays.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import inflect

UNCOUNTABLE: frozenset[str] = frozenset(
    {
        "ore",
        "steel",
        "iron",
        "gold",
        "stone",
        "wheat",
        "timber",
        "coal",
        "salt",
        "clay",
        "lime",
        "bitumen",
        "jewellery",
        "science",
        "work",
        "distance",
        "glow moss",
        "influence",
        "prestige",
        "damage",
        "vp",
        "crew",
        "headquarters",
        "movement",
        "range",
        "attack",
        "defence",
        "income",
        "revenue",
        # the same word for one and many:
        "barracks",
        "works",
        "infantry",
        "artillery",
        "series",
    }
)
"""Lower-cased nouns that have no plural in the games' lines: a count of them keeps the noun as it is."""

ARTICLES: dict[str, str] = {}
"""Words whose article inflect gets wrong for the games (none known yet): word -> 'a' or 'an'."""


@lru_cache(maxsize=1)
def engine() -> inflect.engine:
    """The shared inflect engine (building one reads its word tables, so it is built once)."""
    import inflect

    return inflect.engine()


def _uncountable(noun: str) -> bool:
    low = noun.lower()
    return low in UNCOUNTABLE or low.split()[-1] in UNCOUNTABLE if low else True


@lru_cache(maxsize=2048)
def singular(noun: str) -> str:
    """The noun for one: 'weapons' -> 'weapon', 'coin' -> 'coin', 'ore' -> 'ore'."""
    if not noun or _uncountable(noun):
        return noun
    head, _, last = noun.rpartition(" ")
    low = last.lower()
    one = engine().singular_noun(low)
    if one and one != low and engine().plural_noun(one) == low and one not in {"i", "it", "mine"}:
        one = _like(last, one)
        return f"{head} {one}" if head else one
    return noun


@lru_cache(maxsize=2048)
def _many(noun: str) -> str:
    if not noun or _uncountable(noun):
        return noun
    one = singular(noun)
    if one != noun:
        return noun  # given in the plural already
    head, _, last = noun.rpartition(" ")
    many = _like(last, engine().plural_noun(last.lower()))
    return f"{head} {many}" if head else many


def _like(model: str, word: str) -> str:
    """`word` in the case of `model`: inflect reads capitals as a proper name ('Foundrys'), so the games'
    capitalised names are inflected in lower case and given their capitals back."""
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def plural(noun: str, n: int = 2) -> str:
    """The noun as a count of `n` wants it: 'coin' for 1, 'coins' otherwise; uncountables unchanged."""
    return singular(noun) if abs(n) == 1 else _many(noun)


def count(n: int, noun: str) -> str:
    """'1 coin', '3 coins', '0 coins', '2 ore', '1 weapon' (from 'weapons')."""
    return f"{n} {plural(noun, n)}"


def signed(n: int, noun: str) -> str:
    """A change: '+1 coin', '-3 coins'."""
    return f"{n:+d} {plural(noun, n)}"


@lru_cache(maxsize=2048)
def article(word: str) -> str:
    """'a' or 'an' for the word as said aloud: 'an Arsenal', 'a Foundry', 'a unit', 'an HQ'."""
    first = word.split()[0] if word.split() else word
    if first in ARTICLES:
        return ARTICLES[first]
    if first[:1].isdigit():
        # inflect says 'a 8'; said aloud, 8, 11, 18 and 80-89 take 'an'.
        digits = first.split("-")[0].rstrip(".,")
        said = digits.lstrip("0") or "0"
        eleven = said[:2] in {"11", "18"} and len(said) in (2, 5)
        return "an" if said.startswith("8") or eleven else "a"
    return engine().a(first).split(" ", 1)[0]


def a(noun: str, *, start: bool = False) -> str:
    """The noun with its indefinite article: 'an Arsenal', 'a Foundry'; 'An Arsenal' to start a sentence."""
    word = article(noun)
    return f"{word.capitalize() if start else word} {noun}"


def listed(items: Iterable[str], conjunction: str = "and", empty: str = "") -> str:
    """'a', 'a and b', 'a, b and c'; `empty` when there is nothing."""
    parts = [item for item in items if item]
    if not parts:
        return empty
    if len(parts) == 1:
        return parts[0]
    return f"{', '.join(parts[:-1])} {conjunction} {parts[-1]}"


def clause(text: str) -> str:
    """A sentence's text without its closing full stop, to be joined with others or ended again."""
    text = text.rstrip()
    while text.endswith(".") and not text.endswith("..."):
        text = text[:-1].rstrip()
    return text


def sentence(text: str) -> str:
    """The text ended with exactly one full stop (or its own '!' or '?')."""
    text = clause(text)
    if not text or text.endswith(("!", "?", "…", "...")):
        return text
    return text + "."


def sentences(parts: Iterable[str], separator: str = "; ") -> str:
    """Clauses joined into one sentence: 'moved to G5.', 'hired a crew.' -> 'moved to G5; hired a crew.'"""
    return sentence(separator.join(clause(part) for part in parts if clause(part)))

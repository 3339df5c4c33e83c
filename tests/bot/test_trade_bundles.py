"""Reading what players type into the trade composer."""

from __future__ import annotations

import pytest

from bot.app.trade import BundleError, describe, parse_bundle
from rules.core import TradeForm, TradeGood, TradePartner

MINE = [
    TradeGood(key="coins", label="coins", most=12),
    TradeGood(key="vp", label="VP", most=1),
    TradeGood(key="hand:blast_furnace", label="Blast Furnace (from hand)", most=2),
    TradeGood(key="in_play:blast_furnace", label="Blast Furnace (in play)", most=1),
    TradeGood(key="hand:coke_works", label="Coke Works (from hand)", most=1),
]
THEIRS = [
    TradeGood(key="coins", label="coins", most=3),
    TradeGood(key="hand:iron_ore", label="Iron Ore (from hand)"),
]


def test_counts_names_and_separators():
    assert parse_bundle("2 coins, coke works and 1 vp", MINE, whose="You") == {
        "coins": 2,
        "hand:coke_works": 1,
        "vp": 1,
    }
    assert parse_bundle("Blast Furnace (from hand) x2; 3 coin", MINE, whose="You") == {
        "hand:blast_furnace": 2,
        "coins": 3,
    }
    assert parse_bundle("nothing", MINE, whose="You") == {} == parse_bundle("  ", MINE, whose="You")


def test_ambiguous_unknown_and_too_many_are_refused_with_a_sentence():
    with pytest.raises(
        BundleError, match="could be Blast Furnace \\(from hand\\), Blast Furnace \\(in play\\)"
    ):
        parse_bundle("blast furnace", MINE, whose="You")
    with pytest.raises(BundleError, match="'unicorn' is not something you can trade"):
        parse_bundle("unicorn", MINE, whose="You")
    with pytest.raises(BundleError, match="You have only 12 coins"):
        parse_bundle("13 coins", MINE, whose="You")
    with pytest.raises(BundleError, match="bob has only 3 coins"):
        parse_bundle("2 coins, 2 coins", THEIRS, whose="bob")
    with pytest.raises(BundleError, match="0 is not an amount"):
        parse_bundle("0 coins", MINE, whose="You")


def test_a_hidden_hand_has_no_limit_the_proposer_could_know():
    assert parse_bundle("3 iron ore", THEIRS, whose="bob") == {"hand:iron_ore": 3}


def test_the_composer_text_lists_what_each_side_can_move():
    form = TradeForm(
        gives=MINE, partners=[TradePartner(seat=1, name="bob", asks=THEIRS)], note="Promises are chat."
    )
    text = describe(form, 1)
    assert "12 coins" in text and "2 Blast Furnace (from hand)" in text
    assert "You can ask bob for:** Available: 3 coins; or name any card" in text and "Iron Ore" in text

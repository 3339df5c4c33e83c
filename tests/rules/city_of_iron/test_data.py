"""The data files: validated on load with precise errors, and consistent with the rule texts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rules.city_of_iron.data import DATA_DIR, DataError, game_data, load_data

DATA = game_data()


def broken_copy(tmp_path: Path, name: str, edit) -> Path:  # noqa: ANN001
    for path in DATA_DIR.glob("*.json"):
        shutil.copy(path, tmp_path / path.name)
    raw = json.loads((tmp_path / name).read_text())
    edit(raw)
    (tmp_path / name).write_text(json.dumps(raw))
    return tmp_path


def test_bad_value_names_file_card_and_field(tmp_path: Path) -> None:
    def edit(raw: dict) -> None:
        raw["buildings"][4]["coins"] = -5

    with pytest.raises(DataError) as error:
        load_data(broken_copy(tmp_path, "buildings.json", edit))
    message = str(error.value)
    assert "buildings.json: building 5 (Academy): field coins: " in message


def test_unknown_field_and_unknown_good_are_named(tmp_path: Path) -> None:
    def typo(raw: dict) -> None:
        raw["cards"][0]["wrok"] = 1

    with pytest.raises(DataError, match=r"cards.json: card 1 \(Scholar\): field wrok: "):
        load_data(broken_copy(tmp_path, "cards.json", typo))

    def good(raw: dict) -> None:
        raw["towns"][0]["goods"] = {"turnip": 2}

    with pytest.raises(
        DataError, match=r"towns.json: town 1 \(Fenwick\): field goods: unknown good 'turnip'"
    ):
        load_data(broken_copy(tmp_path, "towns.json", good))


def test_missing_file_is_named(tmp_path: Path) -> None:
    broken_copy(tmp_path, "goods.json", lambda raw: None)
    (tmp_path / "lands.json").unlink()
    with pytest.raises(DataError, match="lands.json"):
        load_data(tmp_path)


def test_component_counts_match_the_rulebook() -> None:
    """Components: decks A 26, B 22, C 18; 22 towns (15 starred, 7 expansion); 12 land boards (4 starting); 10 goods;
    11 military cards per nation; the lists of citizen and military cards."""
    decks = {"A": 0, "B": 0, "C": 0}
    for kind in DATA.buildings.values():
        decks[kind.deck] += len(kind.copies)
    assert decks == {"A": 26, "B": 22, "C": 18}
    assert len(DATA.towns) == 22 and sum(1 for town in DATA.towns.values() if town.stars == 0) == 7
    assert all(sum(1 for town in DATA.towns.values() if town.stars == stars) == 5 for stars in (1, 2, 3))
    assert len(DATA.lands) == 12 and sum(1 for land in DATA.lands.values() if land.start) == 4
    assert len(DATA.goods) == 10
    standard = [card for card in DATA.cards.values() if card.nation is None]
    assert sum(card.copies for card in standard if card.deck == "military") == 11
    names = {card.name for card in DATA.cards.values()}
    for name in (
        "Genius",
        "Gunslinger",
        "Strategist",
        "Fixer",
        "Explorer",
        "Mayor",
        "Wyvern Ship",
        "Iron Dragon",
    ):
        assert name in names


def test_goods_buildings_use_the_rulebooks_land_types() -> None:
    """Land Requirements table: Turnip Farm/Srika Pasture grass, Moss Garden forest, Mine mountain, Docks coast,
    Salt Fields desert, Factory mountain, Demon Traders desert, Silk Weaver jungle, Crystal Caverns flying island."""
    table = {
        "Turnip Farm": "grass",
        "Srika Pasture": "grass",
        "Moss Garden": "forest",
        "Mine": "mountain",
        "Docks": "coast",
        "Salt Fields": "desert",
        "Factory": "mountain",
        "Demon Traders": "desert",
        "Silk Weaver": "jungle",
        "Crystal Caverns": "flying_island",
    }
    for kind in DATA.buildings.values():
        if kind.name in table:
            assert kind.land == table[kind.name], kind.id
    assert set(table) <= {kind.name for kind in DATA.buildings.values()}


def test_sample_round_constraints() -> None:
    """NOTES.md: Academy 5 coins and 1 science per round; Srika Pastures give 3 Srikas or 2 Srikas + 1 Turnip, the
    mixed one costs at most 1; Turnip Farm 3 Turnips; Moss Garden 1 science, 2 Glow Moss; coin bonuses Glow Moss 2,
    Srikas and Turnips 1; two Turnip Farms leave too little for a Mine; Scholar: 1 coin + 1 work for 1 science."""
    b = DATA.buildings
    assert (b["academy"].coins, b["academy"].science_income) == (5, 1)
    assert b["srika-pasture"].goods == {"srikas": 3} and b["srika-pasture"].coins + 5 <= 7
    assert (
        b["srika-pasture-mixed"].goods == {"srikas": 2, "turnips": 1} and b["srika-pasture-mixed"].coins <= 1
    )
    assert b["turnip-farm"].goods == {"turnips": 3}
    assert (b["moss-garden"].science, b["moss-garden"].goods) == (1, {"glow_moss": 2})
    assert b["moss-garden"].coins <= 7 - 1
    assert 7 - 2 * b["turnip-farm"].coins < b["mine"].coins
    goods = DATA.goods
    assert (goods["glow_moss"].coin_bonus, goods["srikas"].coin_bonus, goods["turnips"].coin_bonus) == (
        2,
        1,
        1,
    )
    scholar = DATA.cards["scholar"].action
    assert scholar is not None and (scholar.pay_coins, scholar.work, scholar.science) == (1, 1, 1)
    assert DATA.cards["cartographer"].work >= 1


def test_every_data_file_says_what_is_designed() -> None:
    for path in DATA_DIR.glob("*.json"):
        raw = json.loads(path.read_text())
        assert "designed" in raw and raw.get("source"), path.name
    assert (DATA_DIR / "README.md").exists()

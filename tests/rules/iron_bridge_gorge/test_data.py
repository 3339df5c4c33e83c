"""The card list of data/iron_bridge_gorge/cards.json against the rule text's CARD LIST."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rules.iron_bridge_gorge.data import DATA_DIR, DataError, catalogue, load_catalogue

# CARD LIST: 'Card Name: # Type Rev Requirements', the U/S marks after the count, copied from the text.
CARD_LIST = """
Coal Mine | 4 | F | 1 | None
Iron Ore Mine | 4 | I | 1 | None
Clay Mine | 3U | C | 1 | None
Limestone Quarry | 4 | L | 1 | None
Timber Yard | 3 | F | 1 | None
Charcoal Maker | 4U | F | 2 | Timber
Coke Maker | 3U | F | 2 | Coal
Pig Iron Blast Furnace | 4 | I | 4 | Charcoal, Iron Ore, Limestone
Quicklime Kilns | 2U | L | 3 | Limestone, Coal
Fertilizer Stockpiles | 1U | L | 2 | Quicklime
Stone Cutters | 1 | L | 2 | Limestone
Brick Works | 2 | C | 3 | Coal, Clay
Tile Works | 1 | C | 3 | Coal, Clay
Jackfield Pottery Works | 2 | C | 3 | Clay
Porcelain Works | 2S | C | 4 | Clay
Cast Iron Foundry | 2 | I | 3 | Pig Iron, Charcoal
Wrought Iron Forge | 2S | I | 4 | Pig Iron, Charcoal
Boring Mill | 1S | I | 3 | Pig Iron
Nail Maker | 1U | I | 2 | Wrought Iron
Chain Maker | 1 | I | 3 | Wrought Iron
Steam Engine Maker | 1S | O | 4 | Wrought Iron
Lead Smelter | 1 | O | 2 | Coal
Rope Maker | 1S | O | 1 | None
Bitumen Well | 1U | O | 1 | None
Farmland | 3 | O | 1 | None
Grain Mill | 1 | O | 2 | Farmland
Brewery | 1 | O | 3 | Farmland, Coke
Land Lease | 2 | O | 1 | None
Worker Cottages | 2 | O | 1 | None
Patents | 2 | O | 1 | None
Roads | 1U | T | 1 | None
Wagon Ways | 1 | T | 1 | None
Canals | 1 | T | 1 | None
River Trows | 1 | T | 1 | None
Iron Tub Boats | 1 | T | 1 | None
Inclined Planes | 1 | T | 1 | None
Tunnels | 1S | T | 1 | None
Iron Bridge | 1 | T | 2 | See Notes
"""


def _rows() -> list[tuple[str, str, str, int, list[str]]]:
    rows = []
    for line in CARD_LIST.strip().splitlines():
        name, count, card_type, revenue, requires = (part.strip() for part in line.split("|"))
        needs = [] if requires in ("None", "See Notes") else requires.split(", ")
        rows.append((name, count, card_type, int(revenue), needs))
    return rows


@pytest.mark.parametrize(("name", "count", "card_type", "revenue", "requires"), _rows())
def test_card_list_matches_the_rule_text(
    name: str, count: str, card_type: str, revenue: int, requires: list[str]
):
    """CARD LIST: each card's count, U/S skill mark, type, revenue and requirements come out of the data."""
    cards = catalogue()
    spec = next(spec for spec in cards.cards.values() if spec.name == name)
    assert spec.count == int(count.rstrip("US"))
    assert spec.skill == {"U": "unskilled", "S": "skilled"}.get(count[-1], "normal")
    assert spec.type == card_type
    assert spec.revenue == revenue
    assert [cards[other].label for other in spec.requires] == requires


def test_the_deck_is_the_whole_card_list():
    """THE DECK: 'Players share a common deck' of every card, 38 kinds and 70 cards."""
    cards = catalogue()
    assert len(cards.order) == 38
    assert len(cards.deck()) == 70


def test_notes_are_in_the_data():
    """NOTES: Iron Bridge needs a Wrought Iron Forge, costs 20, awards 5 VP; Patents award 3 VP."""
    cards = catalogue()
    bridge, patents = cards["iron-bridge"], cards["patents"]
    assert (bridge.base_cost, bridge.award_vp, bridge.needs_in_play) == (20, 5, ["wrought-iron-forge"])
    assert patents.award_vp == 3
    assert "ignores-worker-shortage" in cards["worker-cottages"].tags
    assert "build-discount" in cards["land-lease"].tags


def _broken(tmp_path: Path, edit) -> Path:
    shutil.copy(DATA_DIR / "cards.json", tmp_path / "cards.json")
    document = json.loads((tmp_path / "cards.json").read_text())
    edit(document["cards"])
    (tmp_path / "cards.json").write_text(json.dumps(document))
    return tmp_path


def test_a_bad_field_names_the_file_the_card_and_the_field(tmp_path: Path):
    directory = _broken(tmp_path, lambda cards: cards[2].update(revenue="lots"))
    with pytest.raises(DataError, match=r"cards\.json: card 3 \(Clay Mine\): field revenue"):
        load_catalogue(directory)


def test_an_unknown_field_is_refused(tmp_path: Path):
    directory = _broken(tmp_path, lambda cards: cards[0].update(colour="black"))
    with pytest.raises(DataError, match=r"cards\.json: card 1 \(Coal Mine\): field colour: Extra inputs"):
        load_catalogue(directory)


def test_an_unknown_requirement_is_refused(tmp_path: Path):
    directory = _broken(tmp_path, lambda cards: cards[5].update(requires=["timber"]))
    with pytest.raises(
        DataError, match=r"card 6 \(Charcoal Maker\): field requires: unknown card id 'timber'"
    ):
        load_catalogue(directory)


def test_a_duplicate_id_is_refused(tmp_path: Path):
    directory = _broken(tmp_path, lambda cards: cards[1].update(id="coal-mine"))
    with pytest.raises(DataError, match=r"card 2 \(Iron Ore Mine\): field id: 'coal-mine' is used twice"):
        load_catalogue(directory)


def test_an_unknown_tag_is_refused(tmp_path: Path):
    directory = _broken(tmp_path, lambda cards: cards[0].update(tags=["flooded"]))
    with pytest.raises(DataError, match=r"card 1 \(Coal Mine\): field tags\.0"):
        load_catalogue(directory)


def test_a_file_that_is_not_json_is_refused(tmp_path: Path):
    (tmp_path / "cards.json").write_text("{not json")
    with pytest.raises(DataError, match=r"cards\.json: cannot be read as JSON"):
        load_catalogue(tmp_path)

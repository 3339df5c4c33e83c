"""End Round: Snyle's good, the new building row (and the Score cards drawn), scorings, income,
science, the round's card draws, and the game's end."""

from __future__ import annotations

from rules import words
from rules.city_of_iron import scoring
from rules.city_of_iron.choices import action_of, card_names
from rules.city_of_iron.data import deck_letter, rules_data
from rules.city_of_iron.moves.cards import draw_cards
from rules.city_of_iron.scoring import building, town
from rules.city_of_iron.state import ChooseGood, CityState, Player
from rules.core import Choice, Event, RuleError, Seat, built_choice, first_declared


def snyle_goods(state: CityState, player: Player) -> list[str]:
    saved = player.snyle_good
    player.snyle_good = None
    totals = scoring.goods_totals(state, player)
    player.snyle_good = saved
    return [good for good, amount in totals.items() if amount > 0]


def snyle_owner(state: CityState) -> Seat | None:
    for seat, player in enumerate(state.players):
        if any(town(town_id).choose_good for town_id in player.towns) and snyle_goods(state, player):
            return seat
    return None


def snyle_choices(state: CityState, seat: Seat) -> list[Choice]:
    data = rules_data()
    choices = [
        built_choice(
            key=f"snyle:{good}",
            label=f"Snyle gives 2 {data.goods[good].name}",
            action=action_of(ChooseGood, good=good),
            group="Snyle",
        )
        for good in snyle_goods(state, state.players[seat])
    ]
    return first_declared(choices, "safe")  # no pass: the clock names the first good Snyle may give


def apply_snyle(state: CityState, seat: Seat, action: ChooseGood) -> list[Event]:
    player = state.players[seat]
    if action.good not in snyle_goods(state, player):
        raise RuleError("Snyle can only give a good you already own at least one of.")
    player.snyle_good = action.good
    good = rules_data().goods[action.good].name
    return [Event(text=f"Snyle gives {player.name} {words.count(2, good)} this round.")]


def _draw_building(state: CityState, events: list[Event]) -> str | None:
    if not state.deck and state.last_round and state.discard:
        state.deck = state.rng.shuffled(state.discard)
        state.discard = []
        events.append(Event(text="The discarded buildings are shuffled into a new deck.", reveals=True))
    return state.deck.pop(0) if state.deck else None


def refill(state: CityState, events: list[Event]) -> list[str]:
    """Discard the four left-most buildings, slide left, fill up; returns the Score cards drawn."""
    cards = [uid for uid in state.row if uid is not None]
    gone = cards[: rules_data().board.discard_per_round]
    state.discard.extend(gone)
    cards = cards[len(gone) :]
    drawn_scores: list[str] = []
    new: list[str] = []
    while len(cards) < len(state.row):
        uid = _draw_building(state, events)
        if uid is None:
            break
        if uid.startswith("score-"):
            state.score_area.append(uid)
            drawn_scores.append(uid)
            letter = deck_letter(uid)
            events.append(Event(text=f"{rules_data().board.score_cards[letter]} drawn.", reveals=True))
            if letter == "C":
                state.last_round = True
            continue
        cards.append(uid)
        new.append(uid)
    state.row = cards + [None] * (len(state.row) - len(cards))
    if new:
        events.append(
            Event(text=f"New buildings: {', '.join(building(uid).name for uid in new)}.", reveals=True)
        )
    return drawn_scores


def draw_counts(state: CityState, player: Player) -> tuple[int, int]:
    tokens = scoring.tokens()
    counts = {"citizen": 0, "military": 0}
    for city in player.cities:
        counts[tokens[city.token].city_draws] += 1
        for token_id in city.districts:
            counts[tokens[token_id].district_draws] += 1
    for uid in scoring.player_buildings(state, player):
        counts["citizen"] += building(uid).draws_citizen
        counts["military"] += building(uid).draws_military
    for town_id in player.towns:
        counts["citizen"] += town(town_id).draws_citizen
        counts["military"] += town(town_id).draws_military
    return counts["citizen"], counts["military"]


def award_scoring(state: CityState, events: list[Event], score: str) -> None:
    gained = scoring.score_goods(state)
    parts = []
    for seat, player in enumerate(state.players):
        total = sum(gained[seat].values())
        player.vp += total
        parts.append(f"{player.name} +{total}")
    number = state.scorings + 1
    events.append(
        Event(
            text=f"Scoring {number} ({rules_data().board.score_cards[deck_letter(score)]}): {', '.join(parts)}.",
            urgent=True,
        )
    )


def end_game(state: CityState, events: list[Event]) -> None:
    bonuses = scoring.end_bonuses(state)
    for seat, player in enumerate(state.players):
        for name, value in bonuses[seat].items():
            player.vp += value
            events.append(Event(text=f"{player.name}: {name} {value:+d} VP."))
    state.phase = "over"
    events.append(Event(text="The game is over. " + scoring.result(state).reason, urgent=True))


def pay_income(state: CityState, events: list[Event]) -> None:
    """Income: the income track plus the coins for leading goods."""
    bonus = scoring.first_place_bonus(state)
    parts = []
    for seat, player in enumerate(state.players):
        gained = scoring.income_track(state, player) + sum(bonus[seat].values())
        player.coins += gained
        parts.append(f"{player.name} +{gained}")
    events.append(Event(text="Income: " + ", ".join(parts) + "."))


def gain_science(state: CityState, events: list[Event]) -> None:
    """Science from buildings and towns, and 1 more for everyone after a science scoring."""
    science_parts = []
    for player in state.players:
        gained = sum(building(uid).science_income for uid in scoring.player_buildings(state, player))
        gained += sum(town(town_id).science_income for town_id in player.towns)
        if state.scored_now:
            gained += 1
        if gained:
            player.science += gained
            science_parts.append(f"{player.name} +{gained}")
    if science_parts:
        events.append(Event(text="Science: " + ", ".join(science_parts) + "."))


def round_draws(state: CityState, events: list[Event]) -> None:
    """Every player draws the round's citizen and military cards (each told what they drew)."""
    draw_parts = []
    for seat, player in enumerate(state.players):
        citizen, military = draw_counts(state, player)
        got_c = draw_cards(player, "citizen", citizen)
        got_m = draw_cards(player, "military", military)
        if got_c or got_m:
            draw_parts.append((seat, player.name, got_c, got_m))
    if draw_parts:
        events.append(
            Event(
                text="Card draws: "
                + ", ".join(f"{name} {len(c)} citizen, {len(m)} military" for _, name, c, m in draw_parts)
                + ".",
                private={seat: f"You drew {card_names(c + m)}." for seat, _, c, m in draw_parts},
                reveals=True,
            )
        )


def score_due(state: CityState, events: list[Event]) -> None:
    """The scorings whose Score cards were drawn last round."""
    state.scored_now = False
    for due in state.score_due:
        award_scoring(state, events, due)
        state.scorings += 1
        if rules_data().board.score_science[deck_letter(due)]:
            state.scored_now = True

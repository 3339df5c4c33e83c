"""Before the first round: dealing each player's cards, picking nations, arranging the starting decks."""

from __future__ import annotations

from itertools import permutations

from rules import words
from rules.city_of_iron.choices import action_of, card_names, fit_key, kind_of
from rules.city_of_iron.data import rules_data
from rules.city_of_iron.moves.cards import draw_cards
from rules.city_of_iron.scoring import card
from rules.city_of_iron.state import Arrange, CityState, PickNation
from rules.core import Choice, Event, RuleError, Seat, built_choice, first_declared


def deal_cards(state: CityState) -> None:
    """Every player's citizen and military cards; starting decks in data order until arranged."""
    data = rules_data()
    for seat, player in enumerate(state.players):
        nation = data.nations[player.nation] if player.nation else None
        special = state.abilities and nation is not None
        start = (
            (nation.start_citizen + nation.start_military)
            if special and nation
            else (data.board.start_citizen + data.board.start_military)
        )
        owned: list[str] = []
        for kind in data.cards.values():
            copies = kind.copies
            if kind.nation is not None:
                wanted = special and kind.nation == player.nation
                copies = copies if wanted else 0
            for index in range(copies):
                owned.append(f"{kind.id}.{seat}{chr(97 + index)}")
        citizen: list[str] = []
        military: list[str] = []
        for type_id in start:
            uid = next(uid for uid in owned if kind_of(uid) == type_id)
            owned.remove(uid)
            (citizen if card(uid).deck == "citizen" else military).append(uid)
        player.citizen_draw = citizen
        player.military_draw = military
        player.unpurchased = owned


def nation_choices(state: CityState) -> list[Choice]:
    data = rules_data()
    taken = {player.nation for player in state.players}
    choices = [
        built_choice(
            key=f"nation:{nation.id}",
            label=f"Play the {nation.name}",
            action=action_of(PickNation, nation=nation.id),
            group="Nation",
            style="primary",
        )
        for nation in data.nations.values()
        if nation.id not in taken
    ]
    return first_declared(choices, "safe")  # no pass: the clock takes the first nation left


def apply_nation(state: CityState, seat: Seat, action: PickNation) -> list[Event]:
    data = rules_data()
    if action.nation not in data.nations:
        raise RuleError(f"There is no nation called {action.nation!r}.")
    if any(player.nation == action.nation for player in state.players):
        raise RuleError(f"The {data.nations[action.nation].name} are already taken.")
    state.players[seat].nation = action.nation
    return [Event(text=f"{state.players[seat].name} leads the {data.nations[action.nation].name}.")]


def arrange_choices(state: CityState, seat: Seat) -> list[Choice]:
    player = state.players[seat]
    citizen = [kind_of(uid) for uid in player.citizen_draw]
    military = [kind_of(uid) for uid in player.military_draw]
    choices = []
    for c_order in dict.fromkeys(permutations(citizen)):
        for m_order in dict.fromkeys(permutations(military)):
            c_names = ", ".join(rules_data().cards[t].name for t in c_order)
            m_names = ", ".join(rules_data().cards[t].name for t in m_order)
            choices.append(
                built_choice(
                    key=fit_key(f"arrange:{','.join(c_order)}/{','.join(m_order)}"),
                    label=f"Citizens {c_names}; military {m_names} (top first)",
                    action=action_of(Arrange, citizen=list(c_order), military=list(m_order)),
                    group="Starting decks",
                )
            )
    return first_declared(choices, "safe")  # no pass: the clock keeps the decks in the order drawn


def apply_arrange(state: CityState, seat: Seat, action: Arrange) -> list[Event]:
    player = state.players[seat]
    if player.done:
        raise RuleError("You have already arranged your starting decks.")
    citizen = _ordered(player.citizen_draw, action.citizen, "citizen")
    military = _ordered(player.military_draw, action.military, "military")
    player.citizen_draw, player.military_draw = citizen, military
    player.done = True
    drawn = draw_cards(player, "citizen", rules_data().board.starting_hand)
    events = [
        Event(
            text=f"{player.name} arranged the starting decks and drew {words.count(len(drawn), 'citizen card')}.",
            private={seat: f"You drew {card_names(drawn)}."},
            reveals=bool(drawn),
        )
    ]
    return events


def _ordered(pile: list[str], order: list[str], deck: str) -> list[str]:
    if sorted(order) != sorted(kind_of(uid) for uid in pile):
        raise RuleError(f"Order exactly the cards of your starting {deck} deck.")
    remaining = list(pile)
    out = []
    for type_id in order:
        uid = next(uid for uid in remaining if kind_of(uid) == type_id)
        remaining.remove(uid)
        out.append(uid)
    return out

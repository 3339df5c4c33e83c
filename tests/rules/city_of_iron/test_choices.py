"""Every choice offered is accepted and well formed."""

from __future__ import annotations

from rules.city_of_iron import GAME


def test_every_listed_choice_is_accepted_and_well_formed() -> None:
    """The contract: every Choice listed is a valid Choice (key <= 60, label <= 100) and `apply` accepts it."""
    import random

    from rules.core import Choice

    rng = random.Random(4)
    for players, options in (
        (4, {"abilities": True, "expansion": True}),
        (3, {"nations": "pick", "abilities": True}),
        (2, {}),
        (4, {"expansion": True, "stored_penalty": "per_two"}),
    ):
        state = GAME.setup([f"P{index}" for index in range(players)], options, 40 + players)
        step = 0
        while GAME.result(state) is None:
            seat = sorted(GAME.to_act(state))[0]
            choices = GAME.legal_actions(state, seat)
            for choice in choices:
                Choice.model_validate(choice.model_dump())
            if step % 4 == 0:
                for choice in choices:
                    GAME.apply(state, seat, choice.action)
            state = GAME.apply(state, seat, rng.choice(choices).action).state
            step += 1
        assert state.phase == "over" and state.scorings == 3

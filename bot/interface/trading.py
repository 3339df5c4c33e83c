"""The trade composer: any game that publishes a `TradeForm` gets it in the seat's menu.

Ready-made offers cover the common cases as buttons; the composer is for everything else: several
cards, coins and VP both ways, to the opponent of your choice. The player picks a partner with a
button, types both sides of the bundle into a modal, and the proposal is applied as an ordinary move,
so the game's own rules judge it, the partner answers with the usual Accept/Decline buttons and the
contents reach only the two parties (the game's private event lines, by DM).

The modal's submit is answered from `on_interaction` (see `bot.interface.cogs.play`), not from the Modal object,
so a form sent just before a restart still lands.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.app.refusals import UserError
from bot.app.text import clip, plain_text
from bot.app.trade import BundleError, describe, parse_bundle
from bot.interface.components import GameButton
from bot.interface.lifecycle import refuse_if_stopping
from bot.interface.ports import TablePort
from bot.interface.reply import Reply
from rules.core import TradeForm

MODAL_ID = re.compile(r"m:(?P<game>\d+):trade:(?P<partner>\d+)")
MAX_PARTNER_BUTTONS = 5


def trade_button(game_id: int) -> GameButton:
    return GameButton(game_id, "trade", label="🤝 Propose a trade…", row=4)


class TradeModal(discord.ui.Modal):
    def __init__(self, game_id: int, partner: int, name: str) -> None:
        super().__init__(title=plain_text(f"Trade with {name}", 45), custom_id=f"m:{game_id}:trade:{partner}")
        self.add_item(
            discord.ui.TextInput(
                label="You give",
                custom_id="give",
                style=discord.TextStyle.paragraph,
                required=False,
                max_length=400,
                placeholder="e.g. 3 coins, Blast Furnace — or leave empty for nothing",
            )
        )
        self.add_item(
            discord.ui.TextInput(
                label=plain_text(f"You ask {name} for", 45),
                custom_id="get",
                style=discord.TextStyle.paragraph,
                required=False,
                max_length=400,
                placeholder="e.g. 1 VP, 2 stone — or leave empty for a gift",
            )
        )

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return not await refuse_if_stopping(interaction)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Answered by `TradeDesk.submit` through `on_interaction`, which works across restarts."""


class TradeDesk:
    def __init__(self, table: TablePort) -> None:
        self.table = table

    async def _form(self, game_id: int, user_id: int) -> tuple[Any, Any, TradeForm]:
        table = self.table
        game = await table.active(game_id)
        seat = await table.service.require_seat(game, user_id)
        rules = table.service.rules_for(game.kind)
        form = rules.trade_form(await table.service.state(game), seat.seat)
        if form is None or not form.partners:
            raise UserError("You cannot propose a trade right now.")
        return game, seat, form

    async def open(self, reply: Reply, game_id: int) -> None:
        """The composer's first step: what can move, and one button per possible partner."""
        game, _, form = await self._form(game_id, reply.interaction.user.id)
        view = discord.ui.View(timeout=None)
        for partner in form.partners[:MAX_PARTNER_BUTTONS]:
            view.add_item(
                GameButton(
                    game.id,
                    "tradeto",
                    menu="0",
                    key=str(partner.seat),
                    label=plain_text(f"Trade with {partner.name}", 80),
                    style=discord.ButtonStyle.primary,
                )
            )
        text = "🤝 **Propose a trade** (only you see this). Pick a partner, then write both sides.\n"
        await reply.send(clip(text + describe(form), 1900), view=view)

    async def ask(self, reply: Reply, game_id: int, partner_key: str | None) -> None:
        """The second step: the modal where both sides of the bundle are typed."""
        _, _, form = await self._form(game_id, reply.interaction.user.id)
        partner = next((p for p in form.partners if str(p.seat) == partner_key), None)
        if partner is None:
            raise UserError("You cannot trade with that player now.")
        await reply.modal(TradeModal(game_id, partner.seat, partner.name))

    async def submit(self, interaction: discord.Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        match = MODAL_ID.fullmatch(str(data.get("custom_id", "")))
        if match is None:
            return
        fields = {
            str(field.get("custom_id")): str(field.get("value") or "")
            for field in text_inputs(data.get("components", []))
        }

        async with Reply(interaction) as reply:
            game, seat, form = await self._form(int(match["game"]), interaction.user.id)
            partner = next((p for p in form.partners if p.seat == int(match["partner"])), None)
            if partner is None:
                raise UserError("You cannot trade with that player now.")
            try:
                give = parse_bundle(fields.get("give", ""), form.gives, whose="You")
                get = parse_bundle(fields.get("get", ""), partner.asks, whose=partner.name)
            except BundleError as problem:
                raise UserError(f"{problem} Nothing was proposed.") from None
            if not give and not get:
                raise UserError("Write at least one thing to give or to ask for. Nothing was proposed.")
            rules = self.table.service.rules_for(game.kind)
            state = await self.table.service.state(game)
            action = rules.trade_action(state, seat.seat, partner.seat, give, get)
            await self.table.play_move(reply, game, action=action)


def text_inputs(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The text inputs of a form, whether in action rows (type 1) or in labels (type 18, whose label
    then stands on the input), as the bot sends the form and as the user submits it."""
    found: list[dict[str, Any]] = []
    for component in components:
        if component.get("type") == 4:
            found.append(component)
        elif "component" in component:
            found += text_inputs([{"label": component.get("label", ""), **component["component"]}])
        else:
            found += text_inputs(component.get("components", []))
    return found

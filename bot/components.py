"""Buttons and selects that survive restarts.

Every component is a `DynamicItem` whose custom_id carries the game id (and, for a move, a digest
of the seat's choices and the choice key), parsed by a template. Nothing lives in the View object: a click on a
message posted before a restart reaches the same handler, which loads the game from the store, and a
click on an outdated menu is recognised by the digest of the choices it offered.

custom_id layouts (Discord allows 100 characters):
  g:<game>:<verb>                      menu, hand, board, join, leave, start
  g:<game>:act:<menu>:<choice key>     one move; <menu> is the digest of the seat's choices then
  s:<game>:pick:<menu>:<n>             a select of moves; its option values are choice keys
  s:<game>:opt:<option name>           a lobby option (host only)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.reply import clip
from bot.service import menu_digest
from rules.core import Choice, OptionSpec

if TYPE_CHECKING:
    from bot.table import Table

BUTTON_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
MAX_BUTTONS = 20
"""Four rows of five; the fifth row stays free for the navigation buttons."""
MAX_SELECT_OPTIONS = 25
MAX_ROWS = 5


def _table(interaction: discord.Interaction) -> Table:
    return interaction.client.table  # type: ignore[attr-defined]


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"g:(?P<game>\d+):(?P<verb>[a-z]+)(?::(?P<menu>[0-9a-f]+):(?P<key>.+))?",
):
    def __init__(
        self,
        game_id: int,
        verb: str,
        *,
        menu: str | None = None,
        key: str | None = None,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        custom_id = f"g:{game_id}:{verb}" + (f":{menu}:{key}" if menu is not None else "")
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id, row=row))
        self.game_id = game_id
        self.verb = verb
        self.menu = menu
        self.key = key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: Any
    ) -> GameButton:
        return cls(
            int(match["game"]),
            match["verb"],
            menu=match["menu"],
            key=match["key"],
            label=item.label,
            style=item.style,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await _table(interaction).on_button(interaction, self.game_id, self.verb, self.menu, self.key)


class GameSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"s:(?P<game>\d+):(?P<verb>pick|opt):(?P<arg>[^:]+)(?::(?P<extra>[^:]+))?",
):
    def __init__(
        self, game_id: int, verb: str, arg: str, extra: str | None, select: discord.ui.Select
    ) -> None:
        select.custom_id = f"s:{game_id}:{verb}:{arg}" + (f":{extra}" if extra is not None else "")
        super().__init__(select)
        self.game_id = game_id
        self.verb = verb
        self.arg = arg
        self.extra = extra

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: Any
    ) -> GameSelect:
        return cls(int(match["game"]), match["verb"], match["arg"], match["extra"], item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        table = _table(interaction)
        if self.verb == "pick":
            await table.on_button(interaction, self.game_id, "act", self.arg, values[0] if values else None)
        else:
            await table.on_option(interaction, self.game_id, self.arg, values[0] if values else None)


def choice_menu(game_id: int, choices: list[Choice]) -> tuple[discord.ui.View, list[Choice]]:
    """The seat's choices as buttons when few, as one select per group when many.

    Returns the view and the choices that did not fit (offered through `/play` autocomplete).
    """
    menu = menu_digest(choices)
    view = discord.ui.View(timeout=None)
    if len(choices) <= MAX_BUTTONS:
        for index, choice in enumerate(choices):
            view.add_item(
                GameButton(
                    game_id,
                    "act",
                    menu=menu,
                    key=choice.key,
                    label=clip(choice.label, 80),
                    style=BUTTON_STYLES[choice.style],
                    row=index // 5,
                )
            )
        return view, []
    groups: dict[str, list[Choice]] = {}
    for choice in choices:
        groups.setdefault(choice.group or "Moves", []).append(choice)
    chunks: list[tuple[str, list[Choice]]] = []
    for group, members in groups.items():
        parts = [members[i : i + MAX_SELECT_OPTIONS] for i in range(0, len(members), MAX_SELECT_OPTIONS)]
        for number, part in enumerate(parts, start=1):
            title = group if len(parts) == 1 else f"{group} ({number}/{len(parts)})"
            chunks.append((title, part))
    shown, left = chunks[: MAX_ROWS - 1], chunks[MAX_ROWS - 1 :]
    for index, (title, part) in enumerate(shown):
        select = discord.ui.Select(
            placeholder=clip(f"{title}: choose…", 150),
            options=[discord.SelectOption(label=clip(c.label, 100), value=c.key) for c in part],
            row=index,
        )
        view.add_item(GameSelect(game_id, "pick", menu, str(index), select))
    return view, [choice for _, part in left for choice in part]


def turn_buttons(game_id: int, *, finished: bool = False) -> discord.ui.View:
    """The buttons under every public turn message: nothing on them is private."""
    view = discord.ui.View(timeout=None)
    if not finished:
        view.add_item(GameButton(game_id, "menu", label="Take my turn", style=discord.ButtonStyle.primary))
        view.add_item(GameButton(game_id, "hand", label="My hand"))
    view.add_item(GameButton(game_id, "board", label="Board"))
    view.add_item(GameButton(game_id, "log", label="Log"))
    return view


def lobby_view(game_id: int, options: tuple[OptionSpec, ...], values: dict[str, Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(game_id, "join", label="Join", style=discord.ButtonStyle.success, row=0))
    view.add_item(GameButton(game_id, "leave", label="Leave", row=0))
    view.add_item(GameButton(game_id, "start", label="Start", style=discord.ButtonStyle.primary, row=0))
    for row, spec in enumerate(options[: MAX_ROWS - 1], start=1):
        view.add_item(
            GameSelect(game_id, "opt", spec.name, None, _option_select(spec, values.get(spec.name), row))
        )
    return view


def _option_select(spec: OptionSpec, current: Any, row: int) -> discord.ui.Select:
    if spec.kind == "bool":
        pairs = [("On", "on"), ("Off", "off")]
        chosen = "on" if current else "off"
    elif spec.kind == "choice":
        pairs = [(value, value) for value in spec.choices]
        chosen = str(current)
    else:
        low = spec.min if spec.min is not None else 0
        high = spec.max if spec.max is not None else low + 24
        values = _spread(low, high, int(current))
        pairs = [(str(value), str(value)) for value in values]
        chosen = str(current)
    return discord.ui.Select(
        placeholder=clip(f"{spec.label}: {chosen}", 150),
        options=[
            discord.SelectOption(
                label=clip(f"{spec.label}: {label}", 100), value=value, default=value == chosen
            )
            for label, value in pairs[:MAX_SELECT_OPTIONS]
        ],
        row=row,
    )


def _spread(low: int, high: int, current: int) -> list[int]:
    """At most 25 values from low to high: every one when they fit, else round steps plus the ends."""
    if high - low < MAX_SELECT_OPTIONS:
        return list(range(low, high + 1))
    step = 1
    while (high - low) // step > 20:  # the next "round" step: 1, 2, 5, 10, 20, 50, ...
        step = step * 5 // 2 if str(step).startswith("2") else step * 2
    values = {low, high, current} | set(range(((low + step - 1) // step) * step, high + 1, step))
    return sorted(values)[:MAX_SELECT_OPTIONS]

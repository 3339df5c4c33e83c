"""Buttons and selects that survive restarts.

Every component is a `DynamicItem` whose custom_id carries the game id (and, for a move, a digest
of the seat's choices and the choice key), parsed by a template. Nothing lives in the View object: a click on a
message posted before a restart reaches the same handler, which loads the game from the store, and a
click on an outdated menu is recognised by the digest of the choices it offered.

custom_id layouts (Discord allows 100 characters):
  g:<game>:<verb>                      menu, hand, board, join, leave, start
  g:<game>:act:<menu>:<choice key>     one move; <menu> is the digest of the seat's choices then
  g:<game>:grp:<menu>:<path>          open a part of a menu too big for one message ('r.2.0')
  g:<game>:up:<menu>:<path>           back to the part that holds it
  g:<game>:sec:0:<section>             a part of the board in detail ('goods'), or 'board' itself
  g:<game>:page:<n>:<section>          page n (from 1) of a section cut into pages (a long key)
  s:<game>:pick:<menu>:<n>             a select of moves; its option values are choice keys
  s:<game>:opt:<option name>           a lobby option (host only)
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import discord

from bot.app.service import menu_digest
from bot.app.text import clip, plain_text
from bot.interface.lifecycle import refuse_if_stopping
from bot.interface.ports import TablePort
from rules.core import Choice, OptionSpec

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
MAX_SELECTS = MAX_ROWS - 1
DIRECT_MOST = MAX_SELECTS * MAX_SELECT_OPTIONS
"""The most choices one message offers directly: four selects of 25."""
BUTTON_LABEL = 80
OPTION_LABEL = 100
OPTION_DESCRIPTION = 100
ROOT = "r"
_SPLIT = re.compile(r" → |: |; | with | for | from ")


def _table(interaction: discord.Interaction) -> TablePort:
    # discord.py types the client as a plain Client; every interaction here reaches the HostBot (its table).
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
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> GameButton:
        assert isinstance(item, discord.ui.Button), "the custom id of a GameButton is a button's"
        return cls(
            int(match["game"]),
            match["verb"],
            menu=match["menu"],
            key=match["key"],
            label=item.label,
            style=item.style,
        )

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return not await refuse_if_stopping(interaction)

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
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> GameSelect:
        assert isinstance(item, discord.ui.Select), "the custom id of a GameSelect is a select menu's"
        return cls(int(match["game"]), match["verb"], match["arg"], match["extra"], item)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return not await refuse_if_stopping(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        table = _table(interaction)
        if self.verb == "pick":
            await table.on_button(interaction, self.game_id, "act", self.arg, values[0] if values else None)
        else:
            await table.on_option(interaction, self.game_id, self.arg, values[0] if values else None)


def _path(choice: Choice) -> list[str]:
    """`Choice.path`, also for choices a game built with `model_construct` (no defaults filled)."""
    return getattr(choice, "path", None) or []


def subgroup_of(choice: Choice) -> str:
    """The part of a choice's label that names what it is about ('Skirmisher Patrol F3' of
    'Skirmisher Patrol F3 → move H2'), shared by its variants; the whole label when nothing splits."""
    path = _path(choice)
    if path:
        return path[0]
    head = _SPLIT.split(choice.label, maxsplit=1)[0].strip()
    return head or choice.label


@dataclass
class Entry:
    """One component of a menu message, before it becomes Discord's."""

    kind: Literal["choice", "open", "select", "up"]
    label: str
    row: int
    choice: Choice | None = None
    path: str = ""
    options: list[Choice] = field(default_factory=list)
    option_labels: list[str] = field(default_factory=list)
    option_descriptions: list[str] = field(default_factory=list)
    """What an option's label had no room for (its beginning), shown under it; '' when it fit."""
    style: str = "secondary"


@dataclass
class Node:
    title: str
    members: list[Choice]
    depth: int
    room: int | None = None
    """The buttons this node's message may hold (the root gives up a row to the pinned choices)."""

    @property
    def buttons(self) -> int:
        return MAX_BUTTONS if self.room is None else self.room

    @property
    def selects(self) -> int:
        return MAX_SELECTS if self.room is None else MAX_SELECTS - (MAX_BUTTONS - self.room) // 5


def pinned(choices: list[Choice]) -> list[Choice]:
    """The choices that stay buttons at the top of the menu whatever its size: the ones the game marks
    as the seat's way out (end the turn, pass, done), so "End turn" never hides in a select or a part.
    None when everything fits as buttons anyway, or when a row cannot be spared."""
    ends = [c for c in choices if getattr(c, "ends", False)][:5]
    if not ends or len(choices) <= MAX_BUTTONS or MAX_BUTTONS <= 5 or len(ends) == len(choices):
        return []
    return ends


def _group_title(choice: Choice) -> str:
    return choice.group or "Moves"


def _partition(node: Node) -> list[Node]:
    """A node's children: the games' groups first, then the labels' subgroups, then plain runs."""
    members, depth, most = node.members, node.depth, node.buttons
    if depth == 0:
        groups: dict[str, list[Choice]] = {}
        for choice in members:
            groups.setdefault(_group_title(choice), []).append(choice)
        if len(groups) > 1 and len(groups) <= most:
            return [Node(title, part, depth + 1) for title, part in groups.items()]
    subs = _subgroups(members, depth)
    if _meaningful(subs, most):
        return [Node(title, part, depth + 1) for title, part in subs.items()]
    # too many subgroups (or one too big): pack consecutive ones into at most 20 runs
    pieces = [part[i : i + DIRECT_MOST] for part in subs.values() for i in range(0, len(part), DIRECT_MOST)]
    runs: list[list[Choice]] = []
    for cap in range(max(-(-len(members) // most), 1), DIRECT_MOST + 1):
        runs = []
        for piece in pieces:
            if runs and len(runs[-1]) + len(piece) <= cap:
                runs[-1].extend(piece)
            else:
                runs.append(list(piece))
        if len(runs) <= most:
            break
    else:  # even runs, whatever the subgroups
        size = max(-(-len(members) // most), 1)
        runs = [members[i : i + size] for i in range(0, len(members), size)]
    return [Node(_run_title(run), run, depth + 1) for run in runs]


def _subgroups(members: list[Choice], depth: int) -> dict[str, list[Choice]]:
    subs: dict[str, list[Choice]] = {}
    for choice in members:
        path = _path(choice)
        key = path[depth - 1] if len(path) >= depth >= 1 else subgroup_of(choice)
        subs.setdefault(key, []).append(choice)
    return subs


def _meaningful(subs: dict[str, list[Choice]], most: int | None = None) -> bool:
    """Whether the subgroups make good buttons: several, at most 20, each fitting one message."""
    most = MAX_BUTTONS if most is None else most
    return 1 < len(subs) <= most and all(len(part) <= DIRECT_MOST for part in subs.values())


def _run_title(run: list[Choice]) -> str:
    first, last = subgroup_of(run[0]), subgroup_of(run[-1])
    return first if first == last else f"{clip(first, 35)} … {clip(last, 35)}"


def _direct(node: Node) -> bool:
    """Whether a node's choices fit one message (buttons, or selects below the root)."""
    if len(node.members) <= node.buttons:
        return True
    if node.depth == 0:
        return len(_select_chunks(node)) <= node.selects
    if len(node.members) <= MAX_SELECT_OPTIONS:
        return True
    if node.depth == 1 and len(node.members) <= DIRECT_MOST:
        # a group too big for one select: its parts (an attack's target, a unit) as buttons first
        return not _meaningful(_subgroups(node.members, node.depth))
    return len(node.members) <= DIRECT_MOST


def _select_chunks(node: Node) -> list[tuple[str, list[Choice]]]:
    """Selects of at most 25: one per group (split when larger) at the root, runs of 25 below."""
    groups: dict[str, list[Choice]] = {}
    for choice in node.members:
        groups.setdefault(_group_title(choice) if node.depth == 0 else node.title, []).append(choice)
    chunks: list[tuple[str, list[Choice]]] = []
    for title, members in groups.items():
        parts = [members[i : i + MAX_SELECT_OPTIONS] for i in range(0, len(members), MAX_SELECT_OPTIONS)]
        for number, part in enumerate(parts, start=1):
            if len(parts) == 1:
                chunks.append((title, part))
            else:
                hint = _run_title(part)
                hint = "" if hint == title else f": {hint}"
                chunks.append((f"{title} ({number}/{len(parts)}){hint}", part))
    return chunks


def _root(choices: list[Choice]) -> Node:
    """The whole menu but its pinned choices, in a message that keeps a row for them."""
    pins = pinned(choices)
    if not pins:
        return Node("Your choices", list(choices), 0)
    keys = {c.key for c in pins}
    rest = [c for c in choices if c.key not in keys]
    return Node("Your choices", rest, 0, room=MAX_BUTTONS - 5)


def menu_node(choices: list[Choice], path: str = ROOT) -> Node:
    """The node a path ('r', 'r.2', 'r.2.0') names; ValueError when the choices no longer have it."""
    node = _root(choices)
    parts = path.split(".")
    if parts[0] != ROOT:
        raise ValueError(path)
    for part in parts[1:]:
        if _direct(node) or not part.isdigit():
            raise ValueError(path)
        children = _partition(node)
        index = int(part)
        if index >= len(children):
            raise ValueError(path)
        node = children[index]
    return node


def path_to(choices: list[Choice], keys: set[str]) -> str:
    """The deepest menu path whose node offers every one of `keys` (the root when they are spread)."""
    path = ROOT
    node = menu_node(choices, path)
    while not _direct(node):
        children = _partition(node)
        found = next((i for i, child in enumerate(children) if keys <= {c.key for c in child.members}), None)
        if found is None:
            break
        path, node = f"{path}.{found}", children[found]
    return path


def menu_entries(choices: list[Choice], path: str = ROOT) -> list[Entry]:
    """What one menu message shows: every choice of the node at `path`, directly when they fit, else
    buttons that open its parts, so any choice is at most three presses from the root."""
    node = menu_node(choices, path)
    short = _shortener(node)
    entries: list[Entry] = []
    if len(node.members) <= node.buttons:
        entries = [
            Entry("choice", short(c.label), i // 5, choice=c, style=c.style)
            for i, c in enumerate(node.members)
        ]
    elif _direct(node):
        for row, (title, part) in enumerate(_select_chunks(node)):
            entries.append(Entry("select", f"{title}: choose…", row, options=part))
            entries[-1].option_labels = [short(c.label) for c in part]
    else:
        children = _partition(node)
        opened = _collapse(children, node.buttons)
        slot = 0
        for index, child in enumerate(children):
            if index in opened:
                count = len(child.members)
                entries.append(Entry("open", f"{child.title} ({count})…", slot // 5, path=f"{path}.{index}"))
                slot += 1
            else:
                for choice in child.members:
                    entries.append(
                        Entry("choice", choice.label, slot // 5, choice=choice, style=choice.style)
                    )
                    slot += 1
    if path == ROOT:
        row = max((e.row for e in entries), default=-1) + 1
        entries += [Entry("choice", c.label, row, choice=c, style=c.style) for c in pinned(choices)]
    else:
        parent = path.rsplit(".", 1)[0]
        entries.append(Entry("up", "◀ Back", MAX_ROWS - 1, path=parent))
    _distinguish(entries)
    return entries


def _shortener(node: Node) -> Callable[[str], str]:
    """Inside a part named after what its choices share ('Attack Tallow (D2)'), the labels without
    that shared beginning, which the message's heading already says."""
    title = node.title
    if node.depth < 1 or not all(
        c.label.startswith(title) and len(c.label) > len(title) for c in node.members
    ):
        return lambda label: label
    return lambda label: (label[len(title) :].lstrip(" →:;,") or label) if label.startswith(title) else label


def _collapse(children: list[Node], most: int) -> set[int]:
    """Which children get an "open" button: as few as needed to fit `most` buttons, the largest first."""
    collapsed = set(range(len(children)))
    used = len(children)
    for index in sorted(collapsed, key=lambda i: len(children[i].members)):
        extra = len(children[index].members) - 1
        if used + extra > most:
            break
        collapsed.discard(index)
        used += extra
    return collapsed


def visible(label: str, limit: int) -> str:
    """The label as Discord shows it: on one line, cut at `limit`."""
    return plain_text(label, limit)


def abbreviate(label: str, limit: int) -> tuple[str, str]:
    """A label too long for `limit`, shortened where it says what the move is about rather than at its
    end, which tells the move from its variants ('Explorer: settle Ireland (dist 2) as a 3-city
    (citizen); pay with Cartographer, Scout'): the longest tail after a separator that fits, after as
    much of the beginning as room leaves. Returns the shown text and the beginning it shortened ('' when
    the label fits, or has no separator to cut at: then the end is cut as before)."""
    if len(label) <= limit:
        return label, ""
    cuts = [m.end() for m in _SPLIT.finditer(label) if len(label) - m.end() <= limit - 2]
    if not cuts:
        return label, ""
    cut = min(cuts)
    head, tail = label[:cut].rstrip(" →:;,"), label[cut:]
    room = limit - len(tail) - 2
    shown = (head[:room].rstrip() + "… " + tail) if room >= 12 else "…" + tail
    return shown, head


def distinct_labels(labels: list[str], limit: int) -> list[str]:
    """Labels cut to `limit` that stay distinct: where two would read the same, the part where they
    differ is kept (head … distinguishing end), and equal ones get a number."""
    shown = [visible(label, limit) for label in labels]
    seen: dict[str, list[int]] = {}
    for index, text in enumerate(shown):
        seen.setdefault(text, []).append(index)
    for indices in seen.values():
        if len(indices) < 2:
            continue
        fulls = [labels[i] for i in indices]
        common = len(os.path.commonprefix(fulls))
        for i in indices:
            full = labels[i]
            if len(full) <= limit:
                continue
            tail = full[max(0, common - 8) :]
            room = limit - 1 - len(tail)
            shown[i] = full[:room] + "…" + tail if room >= 8 else "…" + full[-(limit - 1) :]
    counts: dict[str, int] = {}
    for index, text in enumerate(shown):
        if shown.count(text) > 1 or text in counts:
            counts[text] = counts.get(text, 0) + 1
            suffix = f" #{counts[text]}"
            shown[index] = clip(text, limit - len(suffix)) + suffix
    return shown


def _distinguish(entries: list[Entry]) -> None:
    buttons = [e for e in entries if e.kind != "select"]
    shortened = [abbreviate(e.label, BUTTON_LABEL)[0] for e in buttons]
    for entry, label in zip(buttons, distinct_labels(shortened, BUTTON_LABEL), strict=True):
        entry.label = label
    options = [abbreviate(label, OPTION_LABEL) for e in entries for label in e.option_labels]
    labels = iter(distinct_labels([shown for shown, _ in options], OPTION_LABEL))
    heads = iter(visible(head, OPTION_DESCRIPTION) for _, head in options)
    for entry in entries:
        entry.option_labels = [next(labels) for _ in entry.options]
        entry.option_descriptions = [next(heads) for _ in entry.options]
        if entry.kind == "select":
            entry.label = clip(entry.label, 150)


def choice_menu(game_id: int, choices: list[Choice], path: str = ROOT) -> discord.ui.View:
    """The seat's choices (the part at `path`) as components: buttons when few, selects when more,
    and buttons that open groups when they do not fit one message."""
    menu = menu_digest(choices)
    view = discord.ui.View(timeout=None)
    for index, entry in enumerate(menu_entries(choices, path)):
        if entry.kind == "choice":
            assert entry.choice is not None
            view.add_item(
                GameButton(
                    game_id,
                    "act",
                    menu=menu,
                    key=entry.choice.key,
                    label=entry.label,
                    style=BUTTON_STYLES[entry.style],
                    row=entry.row,
                )
            )
        elif entry.kind in ("open", "up"):
            view.add_item(
                GameButton(
                    game_id,
                    "grp" if entry.kind == "open" else "up",
                    menu=menu,
                    key=entry.path,
                    label=entry.label,
                    style=discord.ButtonStyle.primary
                    if entry.kind == "open"
                    else discord.ButtonStyle.secondary,
                    row=entry.row,
                )
            )
        else:
            select: discord.ui.Select[Any] = discord.ui.Select(
                placeholder=entry.label,
                options=[
                    discord.SelectOption(label=label, value=c.key, description=about or None)
                    for c, label, about in zip(
                        entry.options, entry.option_labels, entry.option_descriptions, strict=True
                    )
                ],
                row=entry.row,
            )
            view.add_item(GameSelect(game_id, "pick", menu, str(index), select))
    return view


def turn_buttons(game_id: int, *, finished: bool = False) -> discord.ui.View:
    """The buttons under every public turn message: nothing on them is private."""
    view = discord.ui.View(timeout=None)
    if not finished:
        view.add_item(GameButton(game_id, "menu", label="Take my turn", style=discord.ButtonStyle.primary))
        view.add_item(GameButton(game_id, "hand", label="My hand"))
    view.add_item(GameButton(game_id, "board", label="Board"))
    view.add_item(GameButton(game_id, "log", label="Log"))
    return view


def retired_buttons(game_id: int) -> discord.ui.View:
    """A turn message's buttons once a newer turn message superseded it: greyed out, so nobody
    presses "Take my turn" on a message that is no longer the turn."""
    view = turn_buttons(game_id)
    for button in view.children:
        assert isinstance(button, GameButton), "turn_buttons holds GameButtons only"
        button.item.disabled = True
    return view


def section_buttons(
    game_id: int, sections: list[str], shown: str = "board", *, page: int = 0, pages: int = 1
) -> discord.ui.View | None:
    """Under a board or section picture shown to one person: one button per section of the board
    (the detail a phone-sized turn picture leaves out), so a phone user never types a section's name.
    The one shown is greyed out; None when the game has no sections. A section cut into `pages` (each
    no taller than a phone screen) gets a row to turn them: ◀, "Page 2 of 3" (greyed) and ▶."""
    if not sections:
        return None
    view = discord.ui.View(timeout=None)
    names = ["board", *sections][: 5 * (MAX_ROWS - 1)]
    for index, name in enumerate(names):
        label = "Board" if name == "board" else name.capitalize()
        button = GameButton(game_id, "sec", menu="0", key=name, label=clip(label, 80), row=index // 5)
        button.item.disabled = name == shown
        view.add_item(button)
    if pages > 1 and shown != "board":
        row = (len(names) + 4) // 5
        turns = (  # (page to show, 1-based: distinct in each button's id, label, greyed out)
            (page, "◀ Previous", page <= 0),
            (page + 1, f"Page {page + 1} of {pages}", True),
            (page + 2, "Next ▶", page >= pages - 1),
        )
        for number, label, disabled in turns:
            button = GameButton(game_id, "page", menu=str(number), key=shown, label=label, row=row)
            button.item.disabled = disabled
            view.add_item(button)
    return view


def lobby_view(game_id: int, options: Sequence[OptionSpec], values: dict[str, Any]) -> discord.ui.View:
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
    """The option's values in words (`OptionSpec.text`: a choice's label, what 0 means), keyed by the
    value `resolve_options` takes."""
    if spec.kind == "bool":
        pairs = [(spec.text(True), "on"), (spec.text(False), "off")]
        chosen = "on" if current else "off"
    elif spec.kind == "choice":
        pairs = [(spec.text(value), value) for value in spec.choices]
        chosen = str(current)
    else:
        low = spec.min if spec.min is not None else 0
        high = spec.max if spec.max is not None else low + 24
        values = _spread(low, high, int(current))
        pairs = [(spec.text(value), str(value)) for value in values]
        chosen = str(current)
    return discord.ui.Select(
        placeholder=clip(spec.line(current), 150),
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

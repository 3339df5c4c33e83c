"""No flooding (issue 37): public posts made on request are limited per game and per user, and a user
asking faster than a person can gets a polite "slow down" that costs the bot no render.

The limits (`bot.app.limits`, listed in the README's command table): a user gets at most `PACE`
pictures or whole-history reads (6 in 10 s); the channel gets at most one public board of a game per
2 minutes and one replay per 10 minutes, a replay only when a player of the game asks, and a user at
most 3 public pictures per 10 minutes. Past a limit, the picture goes to the asker only.

The clock the limits read is injected (`Pace`): the tests move it by hand, so every count is exact.
"""

from __future__ import annotations

from pathlib import Path

from bot.app.limits import PACE, PUBLIC_BOARD, PUBLIC_PER_USER, PUBLIC_REPLAY, Limits, Rule
from tests.e2e.harness import open_game, play_out, world


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_window_allows_its_count_then_says_how_long_to_wait() -> None:
    clock = Clock()
    limits = Limits(clock)
    rule = Rule(4, 10.0)
    for _ in range(4):
        assert limits.take("pace", 1, rule).allowed
        clock.now += 1
    refused = limits.take("pace", 1, rule)
    assert not refused.allowed and refused.wait == 6.0 and refused.wait_words == "6 seconds"
    assert limits.take("pace", 2, rule).allowed, "another user has a window of their own"
    clock.now += 6.0
    assert limits.take("pace", 1, rule).allowed, "the first request left the window"
    assert not limits.take("pace", 1, rule).allowed


def test_a_public_post_needs_the_games_window_and_the_users() -> None:
    clock = Clock()
    limits = Limits(clock)
    assert limits.public("replay", 10, 1, PUBLIC_REPLAY).allowed
    blocked = limits.public("replay", 10, 2, PUBLIC_REPLAY)
    assert not blocked.allowed and blocked.by == "game", "one replay per game, whoever asks"
    assert limits.public("board", 10, 2, PUBLIC_BOARD).allowed, "a board is another window"
    for game in (11, 12):
        assert limits.public("board", game, 1, PUBLIC_BOARD).allowed
    tired = limits.public("board", 13, 1, PUBLIC_BOARD)
    assert not tired.allowed and tired.by == "user", "three public pictures per user"
    assert limits.public("board", 13, 3, PUBLIC_BOARD).allowed, "the refused request counted for nobody"
    clock.now += PUBLIC_PER_USER.seconds
    assert limits.public("replay", 10, 1, PUBLIC_REPLAY).allowed


SPAM = 100
"""Requests per spammer, one every 0.6 seconds: 100 in a minute."""


async def test_a_spammer_gets_slow_down_and_the_channel_stays_quiet(tmp_path: Path) -> None:
    """Two users press and type as fast as a script: alice, a player, and mallory, who watches. Each
    sends 100 requests in one minute, in turn: `/game replay`, `/board public:true`, the turn post's
    **Board** and **My hand** buttons and `/board`. Counted: the public posts they made, the pictures the
    bot drew, the "slow down" answers; no slowed request may draw anything."""
    async with world(tmp_path, users=("alice", "bob", "mallory")) as w:
        alice, bob, mallory = w.users["alice"], w.users["bob"], w.users["mallory"]
        table = w.channels["table"]
        await open_game(w, "table", alice, [bob], seed=3, options="rounds=2")
        await play_out(w, "table", [alice, bob], seed=1, moves_wanted=4)
        await w.settle()
        turn = w.turn_messages()[-1]
        buttons = {cid.rsplit(":", 1)[1]: cid for _, cid, _ in turn.buttons() if cid}
        w.pace.step = 0.0
        painter = w.bot.table.painter
        before = {m.id for m in w.public()}
        renders_before = painter.renders
        requests = slowed = private = 0
        drawn_while_slowed = 0

        async def request(user, number: int):  # noqa: ANN202
            kind = number % 5
            if kind == 0:
                return await user.slash(table, "game replay")
            if kind == 1:
                return await user.slash(table, "board", public=True)
            if kind == 2:
                return await user.click(turn.id, buttons["board"])
            if kind == 3:
                return await user.click(turn.id, buttons["hand"])
            return await user.slash(table, "board")

        for number in range(SPAM):
            for user in (alice, mallory):
                drawn = painter.renders
                answer = await request(user, number)
                requests += 1
                if "Slow down" in answer.content:
                    slowed += 1
                    assert answer.ephemeral and not answer.files, answer.content
                    drawn_while_slowed += painter.renders - drawn
                elif answer.ephemeral:
                    private += 1
            w.pace.advance(0.6)
        await w.settle()
        posts = [m for m in w.public() if m.id not in before]
        renders = painter.renders - renders_before
        print(
            f"\nspammers: {requests} requests in {SPAM * 0.6:.0f} s (2 users, {SPAM} each): "
            f"{len(posts)} public posts, {renders} renders, {slowed} slowed down, {private} answered privately, "
            f"{drawn_while_slowed} renders for slowed requests"
        )
        assert drawn_while_slowed == 0
        assert len(posts) <= 2, [m.content[:60] for m in posts]  # one replay (alice's), one board
        assert any("🎞️" in m.content for m in posts), "a player's first replay goes to the channel"
        most = 2 * (PACE.count * (SPAM * 0.6 / PACE.seconds + 1))
        assert requests - slowed <= most, "each user is served at most PACE"
        assert slowed >= requests - most
        assert renders <= 4, "the same pictures are drawn once: board, replay, alice's hand"
        assert not w.server.errors, w.server.errors

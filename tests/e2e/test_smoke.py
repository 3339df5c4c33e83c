from __future__ import annotations

from tests.e2e.harness import menu_choices, world


async def test_lobby_and_first_move(tmp_path):
    async with world(tmp_path) as w:
        alice, bob = w.users["alice"], w.users["bob"]
        table = w.channels["table"]
        r = await alice.slash(table, "game new", game="test-highcard", seed=3)
        print(r.content)
        r = await bob.slash(table, "game join")
        print(r.content)
        r = await alice.slash(table, "game start")
        print(r.content)
        await w.settle()
        for m in w.public():
            print("PUBLIC", m.content[:200], [a.filename for a in m.attachments])
        turn = w.last_public()
        menu = await alice.click(turn.id, "g:1:menu")
        print(menu.content, menu_choices(menu))
        label, cid = menu_choices(menu)[0]
        r = await alice.click(menu.message.id, cid)
        print("CONFIRM", r.content)
        await w.settle()
        print(w.last_public().content)
        print([m.content[:80] for m in alice.dms()])
        assert not w.server.errors, w.server.errors

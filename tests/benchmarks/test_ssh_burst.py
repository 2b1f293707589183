"""benchmarks.ssh measures its sessions "after a game" once every game is over (issue 32).

Each player sets its `done` when its step is over (its lobby drawn, then its game won or
lost) and the burst waits for all of them between steps. A player that was still marked
done from its lobby when the games began let the burst take the game figures a second after
the first key of quick play: the SSH door's "after a game" was its sessions' memory with
the quick-play form open, below the browser door's, which waits for each game's end."""

import asyncio

from benchmarks import ssh

#: Seconds a player's game takes here: longer than the second the burst waits after the
#: games, so that a figure taken before they end is seen.
GAME = 1.5


def test_the_game_figures_wait_for_every_game_to_end(monkeypatch):
    over: list[str] = []
    taken: list[list[str]] = []

    async def play(port, player, start, game, measured, stay):
        # benchmarks.ssh._play's steps, with the sessions and their screens left out.
        player.lobby_s = 0.1
        player.done.set()
        await game.wait()
        if not stay.is_set():
            await asyncio.sleep(GAME)
            over.append(player.name)
            player.done.set()
        await measured.wait()
        await stay.wait()

    def game_figures(sessions, pids, base, idle_pss, look):
        taken.append(list(over))
        return {}

    monkeypatch.setattr(ssh, "_play", play)
    monkeypatch.setattr(ssh, "_host", lambda log: None)
    monkeypatch.setattr(ssh, "_sessions", lambda log: [])
    monkeypatch.setattr(ssh, "pss_mb", lambda pid: 0.0)
    monkeypatch.setattr(ssh, "cpu_s", lambda pid: 0.0)
    monkeypatch.setattr(ssh, "lobby_figures", lambda *args: {})
    monkeypatch.setattr(ssh, "game_figures", game_figures)
    asyncio.run(ssh._burst(0, 0, "", (0, ""), 3, True, False))
    assert taken == [["p0", "p1", "p2"]]

"""Server bots that search think off the event loop, in the workers every table shares, one
decision at a time per worker; and the server chooses which strategies tables may seat."""

from __future__ import annotations

import random
import threading

import pytest
import trio

from engine.bots import LEVELS, STRATEGIES, RandomStrategy
from protocol import CreateTable, Ping, Start
from server.config import ServerConfig
from server.thinking import Thinkers, allowed_strategies
from tests.server.peer import new_id


class Brooding(RandomStrategy):
    """A searching strategy that thinks until the test lets it go."""

    name = "brooding"
    searches = True
    thinking = 0
    most = 0
    release = threading.Event()
    lock = threading.Lock()

    def choose(self, view, moves):
        cls = type(self)
        with cls.lock:
            cls.thinking += 1
            cls.most = max(cls.most, cls.thinking)
        cls.release.wait(10)
        with cls.lock:
            cls.thinking -= 1
        return super().choose(view, moves)


@pytest.fixture
def brooding(monkeypatch):
    monkeypatch.setitem(STRATEGIES, Brooding.name, Brooding)
    Brooding.thinking = Brooding.most = 0
    Brooding.release = threading.Event()
    yield Brooding
    Brooding.release.set()


async def bot_table(peer) -> None:
    made = await peer.request(CreateTable(id=new_id(), options={"seats": 3, "bots": "brooding"}))
    assert made.TYPE == "joined", made
    assert (await peer.request(Start(id=new_id()))).TYPE == "ok"


@pytest.mark.server_config(bot_threads=1)
async def test_searching_bots_think_off_the_loop_one_decision_at_a_time(connect, brooding):
    tables = [await connect(f"host{n}") for n in range(3)]
    async with trio.open_nursery() as nursery:
        for n, peer in enumerate(tables):
            await bot_table(peer)
            # Each host plays its turns, so that every table soon waits for a bot.
            nursery.start_soon(peer.play_random, random.Random(n))
        with trio.fail_after(5):
            while brooding.thinking == 0:
                await trio.sleep(0.01)
        # A bot is thinking, and will until released: the server answers all the same.
        lively = await connect("lively")
        assert (await lively.request(Ping(id=new_id()))).TYPE == "pong"
        made = await lively.request(CreateTable(id=new_id(), options={"seats": 2}))
        assert made.TYPE == "joined"
        await trio.sleep(0.2)
        assert brooding.thinking == 1 and brooding.most == 1  # the other tables' bots wait
        brooding.release.set()
        with trio.fail_after(10):
            while brooding.most == 1 and any(not p.view.over for p in tables):
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert brooding.most == 1  # released, they still thought one at a time


@pytest.mark.server_config(bot_strategies="random,honest")
async def test_the_server_chooses_the_strategies_tables_may_seat(connect):
    ana = await connect("ana")
    refused = await ana.request(CreateTable(id=new_id(), options={"seats": 2,
                                                                   "bots": "heuristic"}))
    assert refused.TYPE == "error" and refused.code == "unknown_strategy"
    assert "random, honest" in refused.message or "honest, random" in refused.message
    made = await ana.request(CreateTable(id=new_id(), options={"seats": 2, "bots": "honest"}))
    assert made.TYPE == "joined"


async def test_the_strategies_setting_is_checked():
    assert allowed_strategies("all") == frozenset(STRATEGIES) | frozenset(LEVELS)
    # A strategy brings the levels made of it ("easy" is random); a level may be named alone.
    assert allowed_strategies(" random , honest ") == {"random", "honest", "easy"}
    assert allowed_strategies("expert") == {"expert"}
    for bad in ("", "random,nosuch", ","):
        with pytest.raises(ValueError):
            allowed_strategies(bad)


async def test_a_levels_budget_is_capped_by_the_servers_never_raised():
    thinkers = Thinkers(ServerConfig(bot_playouts=50))
    assert thinkers.make("expert", 1).playouts == 50
    assert Thinkers(ServerConfig(bot_playouts=10_000)).make("expert", 1).playouts == (
        LEVELS["expert"].settings["playouts"])
    assert thinkers.make("hard", 1).name == "heuristic"


@pytest.mark.server_config(bot_strategies="heuristic")
async def test_a_table_seats_a_level_where_its_strategy_may_sit(connect):
    ana = await connect("ana")
    made = await ana.request(CreateTable(id=new_id(), options={"seats": 2, "bots": "hard"}))
    assert made.TYPE == "joined"
    bruno = await connect("bruno")
    refused = await bruno.request(CreateTable(id=new_id(), options={"seats": 2,
                                                                     "bots": "easy"}))
    assert refused.TYPE == "error" and refused.code == "unknown_strategy"


async def test_ismcts_is_the_strategy_that_searches():
    assert [name for name, cls in STRATEGIES.items() if cls.searches] == ["ismcts"]

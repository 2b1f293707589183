"""The records messages: a finished game's record crosses the wire whole and still replays
to its result (R2.3), and a record that breaks its spec is refused."""

from __future__ import annotations

import msgpack
import pytest

from engine import record as records
from protocol import GameRecord, GetGame, ListGames, RemoteProtocolError, Role, decode, encode
from protocol.codec import SERVER_SENDS

from .helpers import game_record, open_pair


@pytest.mark.parametrize("players", [2, 4, 10])
def test_a_record_crosses_the_wire_and_replays_to_its_result_R2_3(players: int) -> None:
    record = game_record(players, 3)
    got = decode(msgpack.unpackb(encode(GameRecord(re=12, record=record))), SERVER_SENDS)
    assert got.record == record
    game = records.check(got.record)
    assert game.winner == record["result"]["winner"]


def test_the_client_asks_for_a_page_and_a_record_over_a_connection() -> None:
    pair = open_pair()
    pair.send(Role.CLIENT, [ListGames(id=1, before=40, player="Ana"),
                            GetGame(id=2, game=39, max_frame=2**20)])


def _broken(change) -> dict:
    record = game_record()
    change(record)
    return record


@pytest.mark.parametrize("label, change", [
    ("a move by someone unknown", lambda r: r["moves"][0].update(by="ghost")),
    ("a move of a seat past 9", lambda r: r["moves"][0].update(seat=10)),
    ("a move's state id as a string", lambda r: r["moves"][0].update(state_id="3")),
    ("a negative seed", lambda r: r.update(seed=-1)),
    ("a seed past 64 bits", lambda r: r.update(seed=2**64)),
    ("no seed", lambda r: r.pop("seed")),
    ("another format", lambda r: r.update(format="coup-save")),
    ("version 0", lambda r: r.update(version=0)),
    ("an empty start time", lambda r: r.update(started="")),
    ("a result without its order of exile", lambda r: r["result"].pop("out")),
    ("eleven players", lambda r: r.update(players=r["players"] * 3)),
    ("a take-over without its bot", lambda r: r["takeovers"][0].pop("bot")),
    ("options of one player", lambda r: r["options"].update(players=1)),
])
def test_a_record_with_a_bad_field_is_refused(label: str, change) -> None:
    frame = {"t": "game_record", "re": 12, "record": _broken(change)}
    with pytest.raises(RemoteProtocolError) as info:
        decode(frame, SERVER_SENDS)
    assert info.value.code == "bad_message"
    assert info.value.message.startswith("game_record: record.")


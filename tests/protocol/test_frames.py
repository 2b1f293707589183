"""Messages checked and packed once for many connections: `encode_once`, `UpdateFrames`, and
Connection.send taking the Frames they make.

An update built from a public part checked once and each viewer's additions checked alone
must be, byte for byte, what `encode` makes of that viewer's Update, must be refused for
whatever `encode` would refuse, and must decode to the viewer's complete view.
"""

from __future__ import annotations

import random

import msgpack
import pytest

from engine import Game, Options, visible_to
from engine.views import public_dict, view_dict
from protocol import (
    Bye, Frame, LocalProtocolError, MoveAccepted, TableInfo, Update, UpdateFrames,
    Welcome, decode, encode, encode_once,
)
from protocol.codec import SERVER_SENDS

from .helpers import ConnectionPair, open_pair, table_summary

TABLE = "t7"


def _games(players: int, seeds: range):
    """(game, its last events, deadlines) after every move of random games."""
    for seed in seeds:
        g = Game.new(Options(players=players), seed)
        rnd = random.Random(seed)
        while not g.over:
            seat = rnd.choice(g.waiting)
            events = g.apply(seat, rnd.choice(g.legal_moves(seat)))
            yield g, events, [{"seat": s, "ms": 20_000} for s in g.waiting]


def _frames(g, events, deadlines) -> tuple[UpdateFrames, dict]:
    as_dicts = {e: e.to_dict() for e in events}
    reveal = g.reveal().to_dict() if g.over else None
    return UpdateFrames(TABLE, public_dict(g), list(as_dicts.values()), deadlines,
                        reveal), as_dicts


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_viewers_update_is_byte_for_byte_what_encode_makes(players: int) -> None:
    checked = 0
    for g, events, deadlines in _games(players, range(3)):
        frames, as_dicts = _frames(g, events, deadlines)
        public = public_dict(g)
        for seat in [*range(players), None]:
            seen = visible_to(events, seat)
            frame = frames.frame(view_dict(g, seat, {}), [as_dicts[e] for e in seen])
            expected = Update(
                table=TABLE, view=view_dict(g, seat, public),
                events=[e.to_dict() for e in seen], deadlines=deadlines,
                reveal=g.reveal().to_dict() if g.over else None)
            assert frame == Frame("update", encode(expected))
            checked += 1
    assert checked > 100


def test_an_update_frame_decodes_to_the_viewers_complete_view() -> None:
    for g, events, deadlines in _games(4, range(2)):
        frames, as_dicts = _frames(g, events, deadlines)
        for seat in [0, 3, None]:
            seen = [as_dicts[e] for e in visible_to(events, seat)]
            frame = frames.frame(view_dict(g, seat, {}), seen)
            msg = decode(msgpack.unpackb(frame.data), SERVER_SENDS)
            assert msg.view == g.view(seat).to_dict()
            assert msg.events == seen
            assert (msg.reveal is not None) == g.over


def _one_move():
    return next(_games(4, range(1)))


@pytest.mark.parametrize("breach", [
    lambda public: public.update(coins=[1, 2, 3, 1001]),  # a coin count out of range
    lambda public: public.pop("treasury"),  # a field missing
    lambda public: public.update(hands=[None] * 4),  # a viewer's field in the public part
    lambda public: public.update(surprise=1),  # a field the protocol does not define
])
def test_a_bad_public_part_is_refused_once_for_everyone(breach) -> None:
    g, events, deadlines = _one_move()
    public = public_dict(g)
    breach(public)
    with pytest.raises(LocalProtocolError) as info:
        UpdateFrames(TABLE, public, [e.to_dict() for e in events], deadlines)
    assert info.value.code == "bad_message"


@pytest.mark.parametrize("args", [
    {"table": ""},
    {"events": [{"kind": "nonsense"}]},
    {"deadlines": [{"seat": 0, "ms": -1}]},
    {"reveal": {"seat": None}},
])
def test_bad_shared_parts_are_refused(args: dict) -> None:
    g, events, deadlines = _one_move()
    kwargs = {"table": TABLE, "public": public_dict(g), "events": [e.to_dict() for e in events],
              "deadlines": deadlines} | args
    with pytest.raises(LocalProtocolError):
        UpdateFrames(**kwargs)


@pytest.mark.parametrize("breach", [
    lambda own: own.update(hands=[["duke", "duke", "duke"], None, None, None]),
    lambda own: own.pop("shown"),
    lambda own: own.update(coins=[0, 0, 0, 0]),  # a public field among the viewer's own
])
def test_a_bad_viewers_part_is_refused_for_that_viewer(breach) -> None:
    g, events, deadlines = _one_move()
    frames, _ = _frames(g, events, deadlines)
    own = view_dict(g, 0, {})
    breach(own)
    with pytest.raises(LocalProtocolError):
        frames.frame(own, [])
    assert frames.frame(view_dict(g, 1, {}), [])  # the other viewers are not affected


def test_only_the_events_checked_with_the_move_may_be_sent() -> None:
    g, events, deadlines = _one_move()
    frames, as_dicts = _frames(g, events, deadlines)
    own = view_dict(g, 0, {})
    lookalike = dict(next(iter(as_dicts.values())))  # equal, but never checked
    with pytest.raises(LocalProtocolError):
        frames.frame(own, [lookalike])
    one = next(iter(as_dicts.values()))
    with pytest.raises(LocalProtocolError):
        frames.frame(own, [one] * 65)  # more than an update may carry


def test_encode_once_is_encode() -> None:
    msg = TableInfo(info=table_summary())
    assert encode_once(msg) == Frame("table", encode(msg))


def test_a_frame_sent_on_an_open_connection_is_read_as_its_message() -> None:
    pair = open_pair()
    msg = MoveAccepted(re=3, state_id=12)
    data = pair.server.send(encode_once(msg))
    pair.client.receive_data(data)
    assert pair.client.next_message() == msg


def test_a_frame_is_not_sent_before_the_handshake_or_after_bye() -> None:
    pair = ConnectionPair()
    frame = encode_once(MoveAccepted(re=3, state_id=12))
    with pytest.raises(LocalProtocolError):
        pair.server.send(frame)
    pair.handshake()
    pair.server.send(Bye(reason="server_shutdown"))
    with pytest.raises(LocalProtocolError):
        pair.server.send(frame)


def test_a_frame_never_changes_the_connections_state() -> None:
    pair = open_pair()
    for msg in (Welcome(version=1, server="coupd/test"), Bye(reason="server_shutdown")):
        with pytest.raises(LocalProtocolError):
            pair.server.send(encode_once(msg))


def test_a_frame_of_the_wrong_direction_is_refused() -> None:
    pair = open_pair()
    frame = encode_once(MoveAccepted(re=3, state_id=12))
    with pytest.raises(LocalProtocolError):
        pair.client.send(frame)


def test_a_frame_over_the_peers_limit_is_frame_too_large() -> None:
    pair = open_pair()
    frame = encode_once(TableInfo(info=table_summary()))
    pair.server.peer_max_frame = len(frame.data) - 1
    with pytest.raises(LocalProtocolError) as info:
        pair.server.send(frame)
    assert info.value.code == "frame_too_large"

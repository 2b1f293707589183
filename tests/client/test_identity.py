"""The player's key (issue 16): made on first use in a file only its owner can read, the same
key every time after; `--identity FILE` chooses another, and a file that is not a key is a
one-line error. Over real TCP a Link identifies with it, a refusal is a LinkError with the
server's code, and a bot started again with its key gets its seat back with no token.
"""

from __future__ import annotations

import os
import random
import stat

import pytest
import trio

from client.cli import main
from client.identity import IdentityError, bot_path, default_path, load
from client.net import Link, LinkError
from client.runner import BotRunner
from engine.bots import make
from protocol import CreateTable, Join, Ready
from server import Server, ServerConfig
from tests.server.peer import Peer, new_id


def test_a_key_is_made_on_first_use_for_its_owner_alone_and_kept(tmp_path):
    path = tmp_path / "deep" / "me.pem"
    first = load(str(path))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert len(first.key) == 64
    assert load(str(path)).key == first.key  # the same player the next time
    assert load(str(tmp_path / "other.pem")).key != first.key


def test_the_players_key_and_each_bots_live_apart_in_the_config_directory(tmp_path,
                                                                         monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    mine = default_path()
    assert mine.startswith(str(tmp_path)) and mine.endswith("identity.pem")
    assert bot_path("honest-bot") != mine
    assert bot_path("honest-bot") != bot_path("heuristic-bot")
    assert load().key == load(mine).key


def test_a_file_that_is_not_a_key_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a key\n")
    with pytest.raises(IdentityError, match="is not a coup identity"):
        load(str(path))


def test_an_encrypted_key_is_said_to_be_encrypted(tmp_path):
    """Issue 27: an encrypted Ed25519 key was "not a coup identity"; it is one, locked."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    path = tmp_path / "locked.pem"
    path.write_bytes(Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"secret")))
    with pytest.raises(IdentityError, match="is encrypted: coup needs an unencrypted"):
        load(str(path))


@pytest.mark.parametrize("source", ["/dev/zero", "large"])
def test_a_file_without_end_or_too_large_is_read_no_further_than_a_key_can_be(tmp_path,
                                                                              source):
    """Issue 27: /dev/zero as the key file was read until memory ran out."""
    path = source
    if source == "large":
        path = str(tmp_path / "large.pem")
        with open(path, "wb") as file:
            file.write(b"-----BEGIN PRIVATE KEY-----\n" + b"A" * (1 << 20))
    with pytest.raises(IdentityError, match="is not a coup identity .*larger than"):
        load(path)


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_a_key_others_can_read_is_used_with_a_warning(tmp_path, capsys, mode):
    """Issue 27: as ssh does, a key file others may read is said to be so (ssh refuses; coup
    warns, so that no one is locked out of their identity by a copy that widened it)."""
    path = tmp_path / "me.pem"
    key = load(str(path)).key
    os.chmod(path, mode)
    identity = load(str(path))
    assert identity.key == key
    assert f"{path} can be read by other users" in identity.warning
    assert f"chmod 600 {path}" in identity.warning
    os.chmod(path, 0o600)
    assert load(str(path)).warning is None
    os.chmod(path, mode)
    assert main(["bot", "127.0.0.1:1", "--identity", str(path)]) == 1  # no server there
    assert f"coup bot: warning: {path} can be read by other users" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["--identity", "{file}"],
    ["join", "127.0.0.1:1", "--identity", "{file}"],
    ["play", "--identity", "{file}"],
    ["bot", "127.0.0.1:1", "--identity", "{file}"],
])
def test_every_command_says_in_one_line_that_the_file_is_no_key_and_exits_2(tmp_path, capsys,
                                                                           argv):
    path = tmp_path / "notes.txt"
    path.write_text("not a key\n")
    assert main([a.format(file=path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path} is not a coup identity" in err


@pytest.fixture
async def server(nursery):
    srv = Server(ServerConfig(port=0, bot_delay=0, response_clock=0, turn_clock=0))
    await nursery.start(srv.serve)
    yield srv
    nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_a_link_with_a_key_identifies_and_the_server_knows_the_player(server, tmp_path):
    me = load(str(tmp_path / "me.pem"))
    link = await Link.open("127.0.0.1", server.address[1], "ana", identity=me)
    assert link.identified.name == "ana" and link.name == "ana"
    assert [s.player for s in server.lobby.sessions] == [f"key:{me.key}"]
    await link.aclose()


@pytest.mark.trio
async def test_a_link_whose_name_another_key_holds_is_refused_with_its_code(server, tmp_path):
    first = await Link.open("127.0.0.1", server.address[1], "ana",
                            identity=load(str(tmp_path / "1.pem")))
    with pytest.raises(LinkError) as refused:
        await Link.open("127.0.0.1", server.address[1], "ana",
                        identity=load(str(tmp_path / "2.pem")))
    assert refused.value.code == "name_taken"
    await first.aclose()


@pytest.mark.trio
async def test_a_bot_started_again_with_its_key_gets_its_seat_back_and_plays_on(server,
                                                                              tmp_path):
    """A bot's process dies mid-game (no goodbye, its token gone with it); the same key,
    started again with no idea of the table, is given the seat and plays the game out."""
    key = load(str(tmp_path / "bot.pem"))
    ana = await Peer.connect(server.address[1], "ana")
    joined = await ana.request(CreateTable(id=new_id(), options={"seats": 2}))
    with trio.fail_after(20):
        dying = await Link.open("127.0.0.1", server.address[1], "robo", identity=key)
        await dying.send(Join(id=dying.next_id(), table=joined.table))
        await dying.send(Ready(id=dying.next_id()))
        await ana.request(Ready(id=new_id()))
        await ana.expect("snapshot")
        await dying.aclose()  # killed: the seat waits, away
        await ana.expect("presence", status="away")
        again = BotRunner("127.0.0.1", server.address[1], make("random", seed=2), name="robo",
                          identity=key)  # no table given: it would otherwise wait for one
        async with trio.open_nursery() as nursery:
            nursery.start_soon(ana.play_random, random.Random(3))
            wins = await again.run()
    assert again.table == joined.table and again.played == 1
    assert wins + (ana.view.winner == ana.seat) == 1
    await ana.aclose()


def launched_identity(argv, monkeypatch):
    """The identity `coup ARGV` starts the app with (the app itself stubbed out)."""
    from tests.client.test_cli import launched

    return launched(argv, monkeypatch).identity


def test_guest_reads_and_makes_no_key(monkeypatch):
    """Issue 17: the browser door's sessions and an SSH player without a key are guests."""
    assert launched_identity(["join", "127.0.0.1:1", "--guest"], monkeypatch) is None
    assert launched_identity(["--guest"], monkeypatch) is None
    assert not os.path.exists(default_path())


def test_a_client_the_ssh_door_starts_is_the_identity_it_vouches_for(monkeypatch):
    """Issue 17: COUP_DOOR_IDENTITY, not the key file of the door's own user."""
    monkeypatch.setenv("COUP_DOOR_IDENTITY", "ab" * 32 + ":" + "cd" * 32)
    identity = launched_identity(["join", "127.0.0.1:1", "--name", "ana"], monkeypatch)
    assert identity.key == "ab" * 32 and "cd" * 32 not in repr(identity)
    assert not os.path.exists(default_path())


def test_a_door_variable_that_is_no_identity_is_one_line_and_exit_2(monkeypatch, capsys):
    monkeypatch.setenv("COUP_DOOR_IDENTITY", "nonsense")
    assert main(["join", "127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "COUP_DOOR_IDENTITY is not <key>:<proof>" in err


def test_coup_key_prints_the_key_a_server_knows_the_player_by(tmp_path, capsys):
    """A server's operators are named by key (coup serve --operators): `coup key` prints
    the player's, in the form the flag takes and the server's log shows, making it on first
    use as every client does; a file that is no key is one line and status 2."""
    path = tmp_path / "me.pem"
    assert main(["key", "--identity", str(path)]) == 0
    assert capsys.readouterr().out == f"key:{load(str(path)).key}\n"
    (tmp_path / "notes.txt").write_text("not a key\n")
    assert main(["key", "--identity", str(tmp_path / "notes.txt")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("coup key: ") and "is not a coup identity" in err
    assert err.count("\n") == 1

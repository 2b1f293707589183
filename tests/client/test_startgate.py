"""The session host's start gate (client/startgate.py, issue 32): a few sessions start at
once, the others wait their turn in the order they came; a session has started once it
waits on something other than the CPU, and one that ends frees its place or its turn."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator

import pytest

from client.startgate import IDLE, LOOK, StartGate, places, wait_turn


class Machine:
    """The CPU each session has had (ns) and the clock, as the test moves them."""

    def __init__(self) -> None:
        self.cpu: dict[int, int] = {}
        self.now = 100.0
        #: The sessions' ends of their pairs, and the gates (with the host's ends of the
        #: pairs still waiting), closed once the test is done.
        self.ends: list[socket.socket] = []
        self.gates: list[StartGate] = []

    def cpu_of(self, pid: int) -> int | None:
        return self.cpu.get(pid)

    def run(self, ns: int, *pids: int) -> None:
        for pid in pids:
            self.cpu[pid] += ns

    def later(self) -> None:
        self.now += LOOK


def arrive(gate: StartGate, machine: Machine, pid: int) -> socket.socket:
    """Session `pid` forked: its end of the pair, to read whether it was let go."""
    turn, its_turn = socket.socketpair()
    its_turn.setblocking(False)
    machine.ends.append(its_turn)
    machine.cpu[pid] = 1_000_000
    gate.came(pid, turn)
    return its_turn


def let_go(its_turn: socket.socket) -> bool:
    try:
        return its_turn.recv(1) == b"g"
    except BlockingIOError:
        return False


@pytest.fixture
def machine() -> Iterator[Machine]:
    machine = Machine()
    yield machine
    for end in machine.ends:
        end.close()
    for gate in machine.gates:
        for _pid, turn in gate.waiting:
            turn.close()


def gate_of(machine: Machine, places: int = 2) -> StartGate:
    gate = StartGate(places, cpu=machine.cpu_of, clock=lambda: machine.now)
    machine.gates.append(gate)
    return gate


def test_sessions_start_a_few_at_once_and_the_others_in_the_order_they_came(
        machine: Machine) -> None:
    gate = gate_of(machine)
    turns = {pid: arrive(gate, machine, pid) for pid in (11, 12, 13, 14)}
    assert [let_go(turns[pid]) for pid in (11, 12, 13, 14)] == [True, True, False, False]
    # Both drawing their lobby: busy on the CPU, they keep their places.
    machine.later()
    machine.run(10 * IDLE, 11, 12)
    gate.look()
    assert not let_go(turns[13]) and not let_go(turns[14])
    # 12 waits for its server (or its player) now: it has started, and 13 goes.
    machine.later()
    machine.run(10 * IDLE, 11)
    machine.run(IDLE // 2, 12)
    gate.look()
    assert let_go(turns[13]) and not let_go(turns[14])
    assert set(gate.starting) == {11, 13}


def test_a_session_is_not_judged_before_a_look_s_time_has_passed(machine: Machine) -> None:
    """Let go a moment ago, it has had no CPU yet: that is not waiting."""
    gate = gate_of(machine, places=1)
    arrive(gate, machine, 21)
    second = arrive(gate, machine, 22)
    assert gate.next_look() == machine.now + LOOK
    gate.look()
    assert set(gate.starting) == {21} and not let_go(second)


def test_an_ended_session_frees_its_place_and_a_gone_one_its_turn(machine: Machine) -> None:
    gate = gate_of(machine, places=1)
    arrive(gate, machine, 31)
    second = arrive(gate, machine, 32)
    third = arrive(gate, machine, 33)
    gate.ended(32)  # killed while waiting: its turn is dropped, its end closed
    gate.ended(31)  # ended while starting: 33 goes
    assert let_go(third) and set(gate.starting) == {33}
    assert second.recv(1) == b""
    # 33 is gone before it was looked at again: its place is free, nothing waits.
    machine.later()
    del machine.cpu[33]
    gate.look()
    assert gate.starting == {} and gate.next_look() is None


def test_a_session_let_go_after_it_is_gone_is_passed_over(machine: Machine) -> None:
    gate = gate_of(machine, places=1)
    arrive(gate, machine, 41)
    second = arrive(gate, machine, 42)
    second.close()  # the process is gone, not reaped yet
    del machine.cpu[42]
    third = arrive(gate, machine, 43)
    gate.ended(41)
    assert let_go(third) and set(gate.starting) == {43}


def test_a_waiting_session_goes_once_let_go_or_once_the_host_is_gone() -> None:
    for host_gone in (False, True):
        turn, its_turn = socket.socketpair()
        waiter = threading.Thread(target=wait_turn, args=(its_turn,))
        waiter.start()
        waiter.join(0.05)
        assert waiter.is_alive()
        if host_gone:
            turn.close()
        else:
            turn.send(b"g")
        waiter.join(5)
        assert not waiter.is_alive() and its_turn.fileno() == -1
        turn.close()
        its_turn.close()


def test_one_more_place_than_cores() -> None:
    assert places() == len(os.sched_getaffinity(0)) + 1

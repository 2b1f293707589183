"""The full-screen client against a hostile server (issue 27, section 7): a snapshot whose
per-seat lists are short crashed it with an IndexError on its first look. It now refuses
the frame as the server's protocol error, says so, and drops that connection."""

from __future__ import annotations

from client.launch import Launch
from tests.client.broken_servers import BROKE, BadSnapshot, HostileThread

from .helpers import notes, run_app, until


def test_the_full_screen_client_says_so_and_does_not_crash():
    """It crashed on its first look at the short snapshot: IndexError in a widget."""
    with HostileThread(BadSnapshot()) as hostile:
        async def body(app, pilot):
            await until(pilot, lambda: any(BROKE in note for note in notes(app)),
                        "the notice of the broken protocol")
            assert app.is_running and (app.table is None or app.table.view is None)

        run_app(Launch("join", name="Ana", port=hostile.port), body)

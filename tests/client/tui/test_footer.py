"""The screens' footer (client/tui/widgets/footer.py): the lobby opens with its keys built
once, not once for each time its screen says its bindings may have changed, and a change
the footer shows is still shown."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from client.i18n import set_language
from client.tui.app import Launch
from client.tui.screens.lobby import LobbyScreen

from .helpers import pretend_connected, run_app


@pytest.fixture
def keys_built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The description of each footer key built from now on."""
    built: list[str] = []
    init = FooterKey.__init__

    def counted(self: FooterKey, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        built.append(self.description)

    monkeypatch.setattr(FooterKey, "__init__", counted)
    return built


def described(app) -> list[str]:
    """What the keys in the footer of the app's screen say they do."""
    return [key.description for key in app.screen.query(FooterKey)]


def test_the_lobby_builds_its_footer_keys_once(keys_built: list[str]) -> None:
    async def body(app, pilot):
        pretend_connected(app)
        keys_built.clear()
        await app.push_screen(LobbyScreen())
        for _ in range(3):  # what the lobby's opening set off, settled
            await pilot.pause()
        assert "Play now" in described(app)
        assert sorted(keys_built) == sorted(described(app))

    run_app(Launch(), body)


def test_a_compact_footer_s_keys_are_not_styled_again_for_it(monkeypatch) -> None:
    """Textual gives each key the footer's -compact once the key is mounted, restyling it
    (and its parts) then: each key of the lobby's was styled twice as the lobby opened."""
    restyled: list[FooterKey] = []
    update_node_styles = FooterKey.update_node_styles

    def counted(self: FooterKey, animate: bool = True) -> None:
        restyled.append(self)
        update_node_styles(self, animate)

    async def body(app, pilot):
        pretend_connected(app)
        monkeypatch.setattr(FooterKey, "update_node_styles", counted)
        await app.push_screen(LobbyScreen())
        for _ in range(3):
            await pilot.pause()
        keys = app.screen.query(FooterKey)
        assert keys and all(key.has_class("-compact") for key in keys)
        assert restyled == []

    run_app(Launch(), body)


def test_the_footer_shows_a_change_of_its_keys() -> None:
    async def body(app, pilot):
        pretend_connected(app)
        await app.push_screen(LobbyScreen())
        for _ in range(3):
            await pilot.pause()
        assert "Play now" in described(app)
        set_language("pt_BR")  # the descriptions are translated as the footer asks
        app.screen.refresh_bindings()
        for _ in range(3):
            await pilot.pause()
        assert "Play now" not in described(app)
        assert "Jogar já" in described(app)

    run_app(Launch(), body)

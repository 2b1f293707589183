"""The app's stylesheet, whose sources are parsed once a process: what one app parsed, the
next app of the process (a session forked from the session host, which parsed them before
the fork) takes as it is.

Textual keeps what a stylesheet parsed in that stylesheet alone, so each app parses its
CSS file and every widget's default CSS again: a tenth of what a door's session spends to
draw its lobby. The rule sets are shared as Textual shares them within one stylesheet
(applying rules never changes them). It must never hand out rules parsed with other
variables (a theme's colours are part of the key), nor hide an error: a source that does
not parse raises each time, and Textual reports rules with errors each time it parses.

It overrides one private method of Textual's Stylesheet (`_parse_rules`), pinned by
pyproject.toml to Textual 8 and guarded by tests/client/tui/test_styles.py.
"""

from __future__ import annotations

from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation

#: The rule sets parsed in this process, by source, how it was given, and variables.
_parsed: dict[tuple[object, ...], list[RuleSet]] = {}


class ParsedOnce(Stylesheet):
    """A stylesheet that parses each source once a process, for every app of it."""

    def __init__(self, *, variables: dict[str, str]) -> None:
        super().__init__(variables=variables)
        self._key_of_variables = tuple(sorted(variables.items()))

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._key_of_variables = tuple(sorted(variables.items()))

    def _parse_rules(self, css: str, read_from: CSSLocation, is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        key = (css, read_from, is_default_rules, tie_breaker, scope, self._key_of_variables)
        rules = _parsed.get(key)
        if rules is None:
            rules = _parsed[key] = super()._parse_rules(css, read_from, is_default_rules,
                                                        tie_breaker, scope)
        return rules


def parsed_sources() -> int:
    """How many sources this process has parsed (for tests and the session host's
    warm-up)."""
    return len(_parsed)

"""Log lines people can read, or JSON objects for machines (`--log-json`).

Every line has an event name and fields: `log.info("table_created", table="k7tq2m", seats=4)`
prints `... INFO table_created table=k7tq2m seats=4`, or one JSON object per line.

Fields often hold what a client sent (its name, its client string), so no value can forge a
line: in text, a value with a space, a quote, an `=` or anything unprintable (a newline, an
escape sequence) is quoted with those escaped; in JSON, every value is a JSON string. A
traceback follows its line, each of its lines indented and escaped alike.
"""

from __future__ import annotations

import json
import logging
import sys
import time

_logger = logging.getLogger("coup.server")


class _Formatter(logging.Formatter):
    def __init__(self, as_json: bool) -> None:
        super().__init__()
        self.as_json = as_json

    def format(self, record: logging.LogRecord) -> str:
        fields = getattr(record, "fields", {})
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        trace = self.formatException(record.exc_info) if record.exc_info else None
        if self.as_json:
            entry = {"time": stamp, "level": record.levelname.lower(),
                     "event": record.getMessage(), **fields}
            if trace:
                entry["traceback"] = trace
            return json.dumps(entry, default=str)
        text = " ".join(f"{k}={quote(str(v))}" for k, v in fields.items())
        line = f"{stamp} {record.levelname:<5} {record.getMessage()} {text}".rstrip()
        if trace:
            line += "".join("\n    " + _escaped(part) for part in trace.splitlines())
        return line


#: Characters that would let a bare value pass for more than one value.
_SEPARATORS = frozenset(' ="\\')


def quote(text: str) -> str:
    """`text` as one value of a text log line: bare if it is safe so, quoted otherwise."""
    if text and text.isprintable() and _SEPARATORS.isdisjoint(text):
        return text
    return '"' + _escaped(text.replace("\\", "\\\\").replace('"', '\\"')) + '"'


def _escaped(text: str) -> str:
    """`text` with every unprintable character (newlines, escapes, controls) as a code."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def setup(as_json: bool, level: int = logging.INFO) -> None:
    """Send the server's log lines to stderr, as text or as JSON."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Formatter(as_json))
    _logger.handlers[:] = [handler]
    _logger.setLevel(level)
    _logger.propagate = False


def info(event: str, **fields) -> None:
    _logger.info(event, extra={"fields": fields})


def warning(event: str, **fields) -> None:
    _logger.warning(event, extra={"fields": fields})


def error(event: str, **fields) -> None:
    _logger.error(event, extra={"fields": fields}, exc_info=fields.pop("exc_info", None))

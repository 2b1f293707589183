"""Log lines people can read, or JSON objects for machines (`--log-json`).

Every line has an event name and fields: `log.info("table_created", table="k7tq2m", seats=4)`
prints `... INFO table_created table=k7tq2m seats=4`, or one JSON object per line.
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
        if self.as_json:
            return json.dumps(
                {"time": stamp, "level": record.levelname.lower(), "event": record.getMessage(),
                 **fields},
                default=str,
            )
        text = " ".join(f"{k}={v}" for k, v in fields.items())
        return f"{stamp} {record.levelname:<5} {record.getMessage()} {text}".rstrip()


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

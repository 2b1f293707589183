"""A record file, as `coup replay FILE` reads it: a JSON record, or JSON lines of them (`coup
export`'s), of which the first is taken.

The file comes from anywhere, so it is read as engine/files.py reads every such file (at
most MAX_FILE bytes, UTF-8, JSON with limits), then checked field by field against the
record's spec, the one `game_record` is checked with when a server sends a record
(protocol.messages.RECORD, docs/RECORDS.md), and last replayed through the engine to the
result it claims (engine.record.check). Whatever is wrong is a RecordError with one
sentence. It never shows anything.
"""

from __future__ import annotations

from engine import files
from engine.record import RecordError, check, check_format
from protocol.messages import RECORD
from protocol.schema import Invalid, compile_spec

#: The largest record file read whole (docs/RECORDS.md): twice the longest record the
#: protocol allows (4,096 moves) pretty-printed. A longer file of JSON lines is read up to
#: the end of its first line, which must come within as many bytes.
MAX_FILE = 2 * 1024 * 1024

_check_fields = compile_spec(RECORD, "record")


def load(path: str) -> dict:
    """The first record of the file at `path`, checked and replayed; RecordError if it is
    not one this coup can replay to its result."""
    try:
        record = _first(path)
    except files.FileError as exc:
        raise RecordError(str(exc)) from None  # the sentence names the file
    try:
        check_format(record)
        _check_fields(record)
        check(record)
    except Invalid as exc:
        raise RecordError(f"{path} is not a record as docs/RECORDS.md writes one: "
                          f"{exc}") from None
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    return record


def _first(path: str):
    """The file's JSON value, or its first line's (JSON lines): what follows the first
    line is never parsed, nor read past MAX_FILE."""
    data, more = files.head(path, MAX_FILE)
    first, newline, _ = data.partition(b"\n")
    if more and not newline:
        raise files.FileError(f"{path} is larger than {files.size(MAX_FILE)}, the most "
                              f"coup replay reads of a record")
    if more:
        return files.parse_json(files.text(first, path), path)
    source = files.text(data, path)
    try:
        return files.parse_json(source, path)
    except files.FileError:
        if not newline or not first.strip():
            raise
        return files.parse_json(files.text(first, path), path)

"""CSV bytes written by cardsim as a header and rows of typed values."""

import csv as _csv
import io as _io
import re as _re

_INT = _re.compile(r"^-?[0-9]+$")
_FLOAT = _re.compile(r"^-?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][-+]?[0-9]+)?$")


def typed(cell):
    """A CSV cell as the value it holds: None when empty, int, float, or the text."""
    if cell == "":
        return None
    if _INT.match(cell):
        return int(cell)
    if _FLOAT.match(cell):
        return float(cell)
    return cell


def parse(csv_bytes):
    """The header (a list of column names) and the rows (one dict per line)."""
    reader = _csv.reader(_io.StringIO(bytes(csv_bytes).decode("utf-8")))
    header = next(reader)
    return header, [dict(zip(header, map(typed, line))) for line in reader]

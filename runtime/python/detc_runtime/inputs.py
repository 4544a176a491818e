"""The one JSON reader of the runtime: every file a transformed script
reads back (sidecars, completion markers, invariants, fix records) goes
through load_json(), which refuses what the C++ side's bounded reader
(lib/base BoundedJSON) refuses: NaN and infinities, more than MAX_BYTES,
bytes that are not UTF-8, nesting deeper than CPython's recursion limit
(json.loads checks it). Each is a ValueError naming the file, never a
RecursionError or MemoryError in the middle of a run.
"""
import json

MAX_BYTES = 256 << 20


def _no_constant(name):
    raise ValueError("%s is not a number detc reads" % name)


def load_json(data, path):
    """The value of JSON bytes or text `data` read from `path`."""
    if len(data) > MAX_BYTES:
        raise ValueError("%s: larger than %d MiB" % (path, MAX_BYTES >> 20))
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError("%s: not UTF-8 (%s)" % (path, e)) from None
    try:
        return json.loads(data, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("%s: nested too deep" % path) from None
    except ValueError as e:
        raise ValueError("%s: not JSON: %s" % (path, e)) from None


def read_json(path):
    """load_json() of the file at `path` (at most MAX_BYTES of it)."""
    with open(path, "rb") as f:
        return load_json(f.read(MAX_BYTES + 1), path)

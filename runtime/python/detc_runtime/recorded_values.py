"""Values that differ from run to run (the clock: `datetime.now()`,
`time.time()`), read in code fast-forward runs, as a sidecar logs them.

`timestamp = datetime.now().strftime('%Y%m%d_%H%M%S')` names a run's
folder and checkpoints (pytorch/tutorials' Fashion-MNIST training script).
The transform wraps such a read (`recorded(site, datetime.now)()`,
replay.py); its values are logged in the sidecars of the checkpoints that
follow, and fast-forward gives the resumed run the checkpointed run's, so
its later checkpoints and logs go where the uninterrupted run's went.

A value is logged as one tagged JSON field, read back without running
anything the sidecar says (a sidecar is untrusted input): numbers, strings,
dates and times, struct_time, UUIDs. Anything else is logged as None and
read anew at the resume.
"""
import datetime
import time
import uuid


def encode(value):
    """The JSON form of `value`, or None when it is none of the kinds
    above."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return {"int": value}
    if isinstance(value, float):
        return {"float": value}
    if isinstance(value, str):
        return {"str": value}
    if isinstance(value, datetime.datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, datetime.date):
        return {"date": value.isoformat()}
    if isinstance(value, time.struct_time):
        return {"struct_time": list(value[:9]), "zone": value.tm_zone,
                "gmtoff": value.tm_gmtoff}
    if isinstance(value, uuid.UUID):
        return {"uuid": str(value)}
    return None


def decode(logged):
    """The value `logged` (encode's form) stands for; ValueError when it
    is not one encode makes."""
    if not valid(logged) or logged is None:
        raise ValueError("not a recorded value: %r" % (logged,))
    (kind, v), = ((k, logged[k]) for k in logged if k in _KINDS)
    if kind in ("int", "float", "str"):
        return v
    if kind == "datetime":
        return datetime.datetime.fromisoformat(v)
    if kind == "date":
        return datetime.date.fromisoformat(v)
    if kind == "uuid":
        return uuid.UUID(v)
    return time.struct_time(tuple(v), {"tm_zone": logged["zone"],
                                       "tm_gmtoff": logged["gmtoff"]})


_KINDS = {"int": int, "float": float, "str": str, "datetime": str,
          "date": str, "uuid": str, "struct_time": list}


def valid(logged):
    """Whether `logged` is a value encode makes (or None)."""
    if logged is None:
        return True
    if not isinstance(logged, dict):
        return False
    kinds = [k for k in logged if k in _KINDS]
    if len(kinds) != 1:
        return False
    kind = kinds[0]
    v = logged[kind]
    if not isinstance(v, _KINDS[kind]) or isinstance(v, bool):
        return False
    if kind == "struct_time":
        return set(logged) == {"struct_time", "zone", "gmtoff"} and \
            len(v) == 9 and all(isinstance(x, int) and
                                not isinstance(x, bool) for x in v) and \
            isinstance(logged["zone"], (str, type(None))) and \
            isinstance(logged["gmtoff"], (int, type(None)))
    if set(logged) != {kind}:
        return False
    try:
        if kind == "datetime":
            datetime.datetime.fromisoformat(v)
        elif kind == "date":
            datetime.date.fromisoformat(v)
        elif kind == "uuid":
            uuid.UUID(v)
    except ValueError:
        return False
    return True


def valid_log(log):
    """Whether a sidecar's `recorded` field is well formed: {site: [value,
    ...]}."""
    return isinstance(log, dict) and all(
        isinstance(k, str) and k.isdigit() and isinstance(v, list) and
        all(valid(x) for x in v) for k, v in log.items())

"""The environment variables a transformed script reads, parsed and checked
in one place, before any of the script's own code runs (configure() calls
check_all() first): a malformed value is `detc-runtime: error: NAME=...:
why` and exit 2, never a traceback in the middle of training, never the
value silently replaced by a default.

Each reader returns the validated value (or the default when the variable
is unset or empty); the modules that use a variable call its reader here.
"""
import math
import os
import sys

from ._state import STATE


def fail(message):
    STATE.failed = True
    print("detc-runtime: error: " + message, file=sys.stderr)
    raise SystemExit(2)


def _raw(name):
    value = os.environ.get(name)
    return None if value is None or value.strip() == "" else value.strip()


def integer(name, default, minimum=None, maximum=None):
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value, 10)
    except ValueError:
        fail("%s=%r: not an integer" % (name, value))
    if minimum is not None and number < minimum:
        fail("%s=%r: must be at least %d" % (name, value, minimum))
    if maximum is not None and number > maximum:
        fail("%s=%r: must be at most %d" % (name, value, maximum))
    return number


def number(name, default, minimum=0.0, maximum=None, positive=False):
    """A finite float (no NaN, no inf)."""
    value = _raw(name)
    if value is None:
        return default
    try:
        x = float(value)
    except ValueError:
        fail("%s=%r: not a number" % (name, value))
    if not math.isfinite(x):
        fail("%s=%r: must be a finite number" % (name, value))
    if x < minimum or (positive and x <= 0):
        fail("%s=%r: must be %s %g" % (name, value, "greater than" if
                                       positive else "at least", minimum))
    if maximum is not None and x > maximum:
        fail("%s=%r: must be at most %g" % (name, value, maximum))
    return x


def choice(name, default, allowed):
    value = _raw(name)
    if value is None:
        return default
    if value not in allowed:
        fail("%s=%r: must be one of %s" % (name, value, ", ".join(
            repr(a) for a in allowed)))
    return value


def world_size():
    return integer("WORLD_SIZE", 1, minimum=1, maximum=1 << 20)


def rank():
    """This process's rank (0 outside a job); checked against WORLD_SIZE."""
    r = integer("RANK", 0, minimum=0)
    world = world_size()
    if r >= world and _raw("RANK") is not None and _raw("WORLD_SIZE"):
        fail("RANK=%d: must be below WORLD_SIZE=%d" % (r, world))
    return r


def recovery_mode():
    return choice("DETC_RECOVERY", "", ("off", "batch", "interactive"))


def recovery_wait():
    return number("DETC_RECOVERY_WAIT", 300.0, maximum=7 * 86400)


def trace_rotate_bytes():
    """DETC_TRACE_ROTATE_MB in bytes (a trace file is rotated past it)."""
    mb = number("DETC_TRACE_ROTATE_MB", 256.0, maximum=1 << 30,
                positive=True)
    return max(1, int(mb * 2 ** 20))


def jit_hang_floor():
    return number("DETC_JIT_HANG_FLOOR", 60.0, maximum=7 * 86400,
                  positive=True)


def jit_collective_timeout(floor):
    return number("DETC_JIT_COLLECTIVE_TIMEOUT", 5 * floor,
                  maximum=7 * 86400, positive=True)


def sync_checkpoints():
    return choice("DETC_SYNC_CHECKPOINTS", "0", ("0", "1")) == "1"


def quiet():
    """DETC_QUIET=1: no start-up line (warnings and errors still print)."""
    return choice("DETC_QUIET", "0", ("0", "1")) == "1"


def progress_seconds():
    """DETC_PROGRESS_SECONDS: how often a long fast-forward says where it
    is (0: at every batch)."""
    return number("DETC_PROGRESS_SECONDS", 10.0, maximum=7 * 86400)


def check_all():
    """Every variable, before the script runs (the readers above fail with
    exit 2 on a malformed value)."""
    world_size()
    rank()
    integer("LOCAL_RANK", 0, minimum=0)
    recovery_mode()
    recovery_wait()
    trace_rotate_bytes()
    jit_collective_timeout(jit_hang_floor())
    sync_checkpoints()
    quiet()
    progress_seconds()

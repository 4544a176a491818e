"""The global generators' states (torch's CPU generator and each
initialized CUDA device's, numpy's, random's): read, encoded for a
sidecar, digested, and set back. fingerprint.py records them with every
checkpoint detc writes (docs/replay.md, "Self-verifying restores").

A checkpoint's fingerprint must cost little next to writing the
checkpoint (bench/fingerprint_cost.py), and on a small one the global
generators were most of it: numpy's `get_state()` copies its 624 key
words one Python assignment at a time (~28 µs), and base64 plus a digest
of the same ~10 KB took ~30 µs more. Here numpy's legacy generator is read
from its memory (located and checked once per process against
`get_state()`, which stays the fallback), and each state is encoded and
digested in one pass of the runtime core.

Raw states, as read:
  "torch", "cuda:N": the uint8 tensor torch returns;
  "numpy": (key bytes, pos, has_gauss, gauss) of the legacy MT19937;
  "random": (version, the 625 state words as bytes, gauss_next).
"""
import array
import base64
import ctypes
import hashlib
import random
import struct
import sys

import numpy as np
import torch

from . import _core

_MT_KEY_BYTES = 624 * 4


# ---- Library generators read from their memory -----------------------------

class _MemoryLayout:
    """Where a library's generator object keeps the state its `getstate`
    returns, found once in a fresh instance and checked against the
    library's reading before use (in two states); the global instance is
    also read both ways once. Anything unexpected (another version of the
    library, another Python) leaves the library's own reading in place."""

    offset = None   # None: not looked for yet; False: not usable
    checked = None  # the global instance, once read both ways

    @classmethod
    def state(cls, owner):
        if cls.offset is None:
            try:
                cls.offset = cls.find() if sys.byteorder == "little" \
                    else False
            except Exception:  # no ctypes, another layout
                cls.offset = False
        if cls.offset is False or not cls.applies(owner):
            return cls.via_library(owner)
        state = cls.read(owner, cls.offset)
        if cls.checked is not owner:
            if state != cls.via_library(owner):
                cls.offset = False
                return cls.via_library(owner)
            cls.checked = owner
        return state

    @classmethod
    def agrees(cls, instance, offset, advance):
        """Whether both readings agree on `instance` now and after
        `advance(instance)`."""
        for _ in range(2):
            if cls.read(instance, offset) != cls.via_library(instance):
                return False
            advance(instance)
        return True


class _NumpyLayout(_MemoryLayout):
    """numpy's legacy RandomState (`get_state()` copies the 624 key words
    one Python assignment at a time: ~28 µs). The key words and position
    are the bit generator's C state (`bit_generator.ctypes.state_address`:
    mt19937_state, 624 words then an int). The cached second Gaussian is
    in the RandomState object itself, in an `aug_bitgen_t` {bitgen_t *,
    int has_gauss, double gauss} that follows its `bitgen_t` {void *state,
    4 function pointers}: found as the object word holding the state's
    address followed, five words on, by that word's own address."""

    @classmethod
    def find(cls):
        rs = np.random.RandomState(7)
        base, words = id(rs), type(rs).__basicsize__ // 8
        state_address = rs._bit_generator.ctypes.state_address
        memory = (ctypes.c_uint64 * words).from_address(base)
        for i in range(words - 8):
            if memory[i] == state_address and memory[i + 5] == base + 8 * i:
                offset = 8 * i + 48
                rs.standard_normal()  # caches a Gaussian; the next uses it
                return offset if cls.agrees(
                    rs, offset, lambda r: r.standard_normal()) else False
        return False

    @staticmethod
    def applies(rs):
        return type(rs) is np.random.RandomState and \
            type(rs._bit_generator).__name__ == "MT19937"

    # (bit generator, its state's address): `.ctypes` builds an object
    # of ctypes pointers at each reading (most of its cost); the state
    # lives in the bit generator object, so its address is its for life.
    _address = (None, None)

    @classmethod
    def read(cls, rs, offset):
        bitgen = rs._bit_generator
        if cls._address[0] is not bitgen:
            cls._address = (bitgen, bitgen.ctypes.state_address)
        state = ctypes.string_at(cls._address[1], _MT_KEY_BYTES + 4)
        has_gauss, gauss = struct.unpack(
            "<i4xd", ctypes.string_at(id(rs) + offset, 16))
        return (state[:_MT_KEY_BYTES],
                struct.unpack_from("<i", state, _MT_KEY_BYTES)[0],
                has_gauss, gauss)

    @staticmethod
    def via_library(rs):
        kind, keys, pos, has_gauss, gauss = rs.get_state()
        if kind != "MT19937":
            raise ValueError("numpy's global generator is %s" % kind)
        return (keys.astype("<u4").tobytes(), int(pos), int(has_gauss),
                float(gauss))


class _RandomLayout(_MemoryLayout):
    """CPython's `_random.Random`: an int index then 624 words
    (Modules/_randommodule.c); `getstate()` returns them as a tuple of 625
    Python ints (~12 µs with the conversion to bytes). Found in a fresh
    instance by its words."""

    @classmethod
    def find(cls):
        r = random.Random(7)
        words = _u32_bytes(r.getstate()[1][:-1])
        at = ctypes.string_at(id(r), type(r).__basicsize__).find(words)
        if at < 4 or at % 4:
            return False
        return at - 4 if cls.agrees(r, at - 4, lambda g: g.random()) \
            else False

    @staticmethod
    def applies(r):
        return type(r) is random.Random

    @staticmethod
    def read(r, offset):
        state = ctypes.string_at(id(r) + offset, 4 + _MT_KEY_BYTES)
        return (r.VERSION, state[4:] + state[:4], r.gauss_next)

    @staticmethod
    def via_library(r):
        version, internal, gauss_next = r.getstate()
        return (version, _u32_bytes(internal), gauss_next)


# ---- Reading ---------------------------------------------------------------

def raw_torch_states():
    """torch's global generators' states (about 2 µs: a just-in-time
    checkpoint takes them at every minibatch start)."""
    raw = {"torch": torch.default_generator.get_state()}
    if torch.cuda.is_initialized():
        for i, s in enumerate(torch.cuda.get_rng_state_all()):
            raw["cuda:%d" % i] = s
    return raw


def raw_other_states():
    """numpy's and random's global generators' states."""
    return {"numpy": _NumpyLayout.state(np.random.mtrand._rand),
            "random": _RandomLayout.state(random._inst)}


def raw_states():
    """Every global generator's state."""
    raw = raw_torch_states()
    raw.update(raw_other_states())
    return raw


def _u32_bytes(values):
    """A tuple of 32-bit unsigned ints as little-endian bytes (random's
    state: array() is 3x faster than numpy for a tuple)."""
    words = array.array("I", values)
    if sys.byteorder != "little":
        words.byteswap()
    return words.tobytes()


# ---- Encoding and digests --------------------------------------------------

def encode(name, raw):
    """(the state as JSON, its digest) in one pass over its bytes. The
    JSON is what set() takes back; the digest covers every field."""
    if name == "numpy":
        keys, pos, has_gauss, gauss = raw
        text, h = _core.state_encode(keys)
        return ({"name": "MT19937", "keys": text, "pos": pos,
                 "has_gauss": has_gauss, "gauss": gauss.hex()},
                "%016x:%d:%d:%s" % (h, pos, has_gauss, gauss.hex()))
    if name == "random":
        version, internal, gauss_next = raw
        text, h = _core.state_encode(internal)
        gauss = None if gauss_next is None else float(gauss_next).hex()
        return ({"version": version, "internal": text, "gauss": gauss},
                "%016x:%d:%s" % (h, version, gauss))
    if raw.dtype == torch.uint8 and raw.device.type == "cpu" and \
            raw.is_contiguous():
        text, h = _core.state_encode_at(raw.data_ptr(), raw.numel())
    else:
        text, h = _core.state_encode(raw.contiguous().cpu().numpy())
    return {"bytes": text}, "%016x" % h


def digest(name, raw):
    """What encode() gives as the digest (fingerprints of version 3; a
    verify asks it once, at the resume)."""
    return encode(name, raw)[1]


def _blake(data):
    return hashlib.blake2b(data, digest_size=8).hexdigest()


def digest_v2(name, raw):
    """The digest fingerprints of version 2 recorded (an earlier detc)."""
    if name == "numpy":
        keys, pos, has_gauss, gauss = raw
        return _blake(b"MT19937:%d:%d:%s:" % (pos, has_gauss,
                                              gauss.hex().encode()) + keys)
    if name == "random":
        version, internal, gauss_next = raw
        return _blake(b"%d:%r:" % (version, gauss_next) + internal)
    return _blake(raw.numpy().tobytes())


def digest_v1(encoded):
    """The digest fingerprints of version 1 recorded: of the JSON."""
    return _blake("\0".join("%s=%s" % kv for kv in sorted(encoded.items()))
                  .encode())


# ---- Setting back ----------------------------------------------------------

class Unloadable(Exception):
    """A saved state this run cannot set (fingerprint.Mismatch)."""


def set_state(name, state):
    """Sets global generator `name` from encode()'s JSON."""
    if name == "torch":
        torch.set_rng_state(torch.frombuffer(
            bytearray(base64.b64decode(state["bytes"])), dtype=torch.uint8))
    elif name.startswith("cuda:"):
        index = int(name[5:])
        if not torch.cuda.is_available() or index >= \
                torch.cuda.device_count():
            raise Unloadable("the %s generator: the checkpointed run had "
                             "this CUDA device, this run has not" % name)
        torch.cuda.set_rng_state(torch.frombuffer(
            bytearray(base64.b64decode(state["bytes"])), dtype=torch.uint8),
            index)
    elif name == "numpy":
        keys = np.frombuffer(base64.b64decode(state["keys"]), dtype="<u4")
        np.random.set_state((state["name"], keys.astype(np.uint32),
                             int(state["pos"]), int(state["has_gauss"]),
                             float.fromhex(state["gauss"])))
    elif name == "random":
        internal = np.frombuffer(base64.b64decode(state["internal"]),
                                 dtype="<u4")
        random.setstate((int(state["version"]),
                         tuple(int(x) for x in internal),
                         None if state["gauss"] is None
                         else float.fromhex(state["gauss"])))
    else:
        raise Unloadable("unknown global generator %r" % name)

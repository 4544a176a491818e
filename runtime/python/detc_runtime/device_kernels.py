"""Keyed values on a GPU in two fused kernels: Philox words, Box-Muller.

device_streams computes Philox in int64 tensor arithmetic: about 250
elementwise kernels per draw, each launched from Python. On a GPU the
launches, not the arithmetic, are the cost: measured on an H200 (torch
2.11, bench/device_draw_cost.py), a keyed dropout mask took 3.7 ms against
torch's 0.022 ms, and the transformed GPU example ran 90% slower than the
original. This module computes the same words in one Triton kernel (Triton
ships with CUDA builds of torch), in uint32 arithmetic, so a draw costs a
handful of launches (0.17 ms for that mask, measured the same way).

The same kernel also writes a Bernoulli mask (a dropout's) straight into
its float32 output, five torch operations fewer per dropout. A second
kernel computes the normals' transform (Box-Muller with
ExactMath.h's log, square root and sine/cosine: about 100 torch operations
unfused) in float64, one IEEE operation per source operation, with
floating-point contraction off (enable_fp_fusion=False: no FMA) and its
constants loaded from a float64 tensor (Triton would round float literals
to float32). The integer Philox is exact by construction; for the floats we
rely on each operation being correctly rounded, so we check: the first use
on each device compares each kernel with device_streams' torch-operation
path on a probe (rows at equal and at different offsets, offsets off a
block boundary; normals from the extremes of the raw words and from a
stream). A mismatch disables that kernel on that device for the process,
with a warning, and draws stay exact and slower; so does a kernel that
fails to compile or launch there (an old GPU, a broken Triton).

DETC_FUSED_DRAWS=0 turns the kernels off. The tests run it on the CPU under
Triton's interpreter (TRITON_INTERPRET=1) when Triton is installed.
"""
import os
import struct

import torch

from ._state import warn_once

try:
    import triton
    import triton.language as tl
except ImportError:  # CPU builds of torch do not ship Triton
    triton = None

_BLOCK = 1024
# Off with DETC_FUSED_DRAWS=0 (bench/device_draw_cost.py sets `disabled`
# to compare the two paths in one process).
disabled = os.environ.get("DETC_FUSED_DRAWS") == "0"
# Under Triton's interpreter the kernels run on the CPU (the tests').
_INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
# Launch options of the float kernel: no contraction of a * b + c into an
# FMA (its one rounding would differ from the core's two). The interpreter
# computes in numpy and takes no such option.
_NO_FMA = {} if _INTERPRETED else {"enable_fp_fusion": False}
# (kernel, device) pairs checked: True (in use) or False (the probe
# disagreed, or the kernel did not build or run there).
_checked = {}


def available(device):
    """Whether keyed values for `device` come from the fused kernels."""
    if triton is None or disabled:
        return False
    return device.type == "cuda" or (device.type == "cpu" and _INTERPRETED)


def _usable(kernel, device, probe):
    """Whether `kernel` agrees with the reference on `device`: probed on
    first use, remembered for the process."""
    if (kernel, device) not in _checked:
        try:
            agrees, why = probe(device), "disagrees with the reference"
        except Exception as e:  # Triton could not build or launch it
            agrees, why = False, "failed (%s: %s)" % (type(e).__name__, e)
        _checked[(kernel, device)] = agrees
        if not agrees:
            warn_once(("fused-draws", kernel, str(device)),
                      "the fused keyed-draw kernel (%s) %s on %s; keyed "
                      "draws there use the slower exact path"
                      % (kernel, why, device))
    return _checked[(kernel, device)]


# ExactMath.h's constants, in the order the normals kernel loads them.
def _normal_constants():
    from . import device_streams as ds  # (it imports this module)
    values = ds._LOG_COEFF + ds._SIN_COEFF + ds._COS_COEFF + [
        ds._LN2_HI, ds._LN2_LO, 2.0 * ds._PI, 67108864.0,
        1.0 / 9007199254740992.0]
    return torch.tensor(values, dtype=torch.float64)


_constants = {}


def _device_constants(device):
    if device not in _constants:
        _constants[device] = _normal_constants().to(device)
    return _constants[device]


if triton is not None:
    @triton.jit
    def _horner(c_ptr, first: tl.constexpr, n: tl.constexpr, x):
        p = x * tl.load(c_ptr + first) + tl.load(c_ptr + first + 1)
        for k in tl.static_range(2, n):
            p = p * x + tl.load(c_ptr + first + k)
        return p

    @triton.jit
    def _uniform_double(hi_word, lo_word, c_ptr):
        hi = (hi_word >> 5).to(tl.float64)
        lo = (lo_word >> 6).to(tl.float64)
        return (hi * tl.load(c_ptr + 30) + lo) * tl.load(c_ptr + 31)

    @triton.jit(do_not_specialize=["pairs"])
    def _normals_kernel(words_ptr, z_ptr, c_ptr, pairs,
                        BLOCK: tl.constexpr):
        # Pair i: raw words 4i..4i+3 in, normals 2i and 2i+1 out (as
        # Distributions.h's normalPairFromRaw). Constants: 10 log, 8 sine
        # and 9 cosine coefficients, ln2 high and low, 2 pi, 2^26, 2^-53.
        i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        inside = i < pairs
        v0 = tl.load(words_ptr + 4 * i, mask=inside, other=0)
        v1 = tl.load(words_ptr + 4 * i + 1, mask=inside, other=0)
        v2 = tl.load(words_ptr + 4 * i + 2, mask=inside, other=0)
        v3 = tl.load(words_ptr + 4 * i + 3, mask=inside, other=0)
        u1 = 1.0 - _uniform_double(v0, v1, c_ptr)
        u2 = _uniform_double(v2, v3, c_ptr)
        # exact::log(u1)
        b = u1.to(tl.int64, bitcast=True)
        t = ((b - 0x3fe6a09e667f3bcd) >> 32) & 0xFFFFFFFF
        t = tl.where(t >= 2147483648, t - 4294967296, t)
        e = t >> 20  # floor division by 2^20 (t is signed)
        m = (b - e * 4503599627370496).to(tl.float64, bitcast=True)
        s = (m - 1.0) / (m + 1.0)
        logm = (s * 2.0) * _horner(c_ptr, 0, 10, s * s)
        de = e.to(tl.float64)
        log_u1 = (de * tl.load(c_ptr + 28) + logm) + de * tl.load(c_ptr + 27)
        # exact::sqrt(log * -2)
        x = log_u1 * -2.0
        g = ((x.to(tl.int64, bitcast=True) >> 1) +
             0x1FF8000000000000).to(tl.float64, bitcast=True)
        for _ in tl.static_range(4):
            g = (g + x / g) * 0.5
        r = tl.where(x == 0.0, x, g)
        # exact::sinCos2Pi(u2)
        q4 = u2 * 4.0
        q = (q4 + 0.5).to(tl.int64)
        f = (q4 - q.to(tl.float64)) * 0.25
        a = f * tl.load(c_ptr + 29)
        a2 = a * a
        sn = a * _horner(c_ptr, 10, 8, a2)
        cs = _horner(c_ptr, 18, 9, a2)
        odd = (q & 1) != 0
        sin_abs = tl.where(odd, cs, sn)
        cos_abs = tl.where(odd, sn, cs)
        sin = tl.where((q & 2) != 0, -sin_abs, sin_abs)
        cos = tl.where(((q + 1) & 2) != 0, -cos_abs, cos_abs)
        tl.store(z_ptr + 2 * i, r * cos, mask=inside)
        tl.store(z_ptr + 2 * i + 1, r * sin, mask=inside)

    # Scalars are not specialised (Triton would make a 1 a constant), and
    # each is widened to int64 before it is cut to 32 bits: a scalar arrives
    # as int32 or int64 by its value.
    @triton.jit(do_not_specialize=["offset", "count", "out_stride",
                                   "seed_lo", "seed_hi", "epoch", "site",
                                   "threshold", "value_bits"])
    def _words_kernel(out_ptr, keys_ptr, offsets_ptr, offset, count,
                      out_stride, seed_lo, seed_hi, epoch, site, threshold,
                      value_bits, PER_ROW: tl.constexpr,
                      BERNOULLI: tl.constexpr, BLOCK: tl.constexpr):
        # One program: BLOCK consecutive words of one row. Word j of row r
        # is lane (p & 3) of Philox block p >> 2, p = offset_r + j; each
        # word computes its whole block (the arithmetic is cheap next to
        # the launch it saves). Stored as int64 words, or (BERNOULLI) as
        # Distributions.h's Bernoulli in float32: the value whose bits are
        # value_bits where the word's top 24 bits are below threshold,
        # else 0.
        row = tl.program_id(1)
        j = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        inside = j < count
        zero = tl.zeros([BLOCK], tl.int64)
        if PER_ROW:
            start = zero + tl.load(offsets_ptr + row)
        else:
            start = zero + offset
        p = start + j.to(tl.int64)
        lane = (p & 3).to(tl.int32)
        c0 = (p >> 2).to(tl.uint32)
        c1 = (zero + tl.load(keys_ptr + row)).to(tl.uint32)
        c2 = (zero + epoch).to(tl.uint32)
        c3 = (zero + site).to(tl.uint32)
        k0 = (zero + seed_lo).to(tl.uint32)
        k1 = (zero + seed_hi).to(tl.uint32)
        m0 = tl.full([BLOCK], 0xD2511F53, tl.uint32)
        m1 = tl.full([BLOCK], 0xCD9E8D57, tl.uint32)
        for rnd in tl.static_range(10):
            if rnd > 0:
                k0 = (k0 + 0x9E3779B9).to(tl.uint32)
                k1 = (k1 + 0xBB67AE85).to(tl.uint32)
            hi0 = tl.umulhi(c0, m0)
            lo0 = c0 * m0
            hi1 = tl.umulhi(c2, m1)
            lo1 = c2 * m1
            c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
        word = tl.where(lane == 0, c0, tl.where(
            lane == 1, c1, tl.where(lane == 2, c2, c3)))
        where = out_ptr + row.to(tl.int64) * out_stride + j
        if BERNOULLI:
            keep = (word >> 8).to(tl.int64) < zero + threshold
            value = (zero + value_bits).to(tl.int32).to(tl.float32,
                                                        bitcast=True)
            tl.store(where, tl.where(keep, value, 0.0), mask=inside)
        else:
            tl.store(where, word.to(tl.int64), mask=inside)


def _launch(seed, site, epoch, keys, offsets, count, device, out=None,
            threshold=None, b=None):
    """Words (rows, count) as int64, or with `threshold` the Bernoulli
    values (0 or float32(b)) written into `out`, a float32 (rows, count)
    view whose rows have unit stride."""
    rows = keys.shape[0]
    bernoulli = threshold is not None
    if out is None:
        out = torch.empty((rows, count), dtype=torch.int64, device=device)
    if rows == 0 or count == 0:
        return out
    per_row = not isinstance(offsets, int)
    mask = 0xFFFFFFFF
    # b as float32 bits, rounded to nearest as torch's masked_fill_ rounds
    # a Python float for a float32 tensor.
    bits = struct.unpack("<i", struct.pack("<f", b))[0] if bernoulli else 0
    grid = (triton.cdiv(count, _BLOCK), rows)
    _words_kernel[grid](out, keys, offsets if per_row else keys,
                        0 if per_row else offsets, count, out.stride(0),
                        seed & mask, (seed >> 32) & mask, epoch & mask,
                        site & mask, threshold or 0, bits, PER_ROW=per_row,
                        BERNOULLI=bernoulli, BLOCK=_BLOCK)
    return out


def _launch_normals(words):
    rows, pairs = words.shape[0], words.shape[1]
    z = torch.empty((rows, 2 * pairs), dtype=torch.float64,
                    device=words.device)
    if rows * pairs:
        words = words.contiguous()
        _normals_kernel[(triton.cdiv(rows * pairs, _BLOCK),)](
            words, z, _device_constants(words.device), rows * pairs,
            BLOCK=_BLOCK, **_NO_FMA)
    return z


def _normals_probe_agrees(reference, device):
    """The normals kernel against `reference` on the extremes of the raw
    words (u1 near 0 and 1, u2 at each quadrant's edges) and on a stream's
    words."""
    edges = [0, 1, 31, 32, 63, 64, 0x3FFFFFFF, 0x40000000, 0x7FFFFFFF,
             0x80000000, 0xBFFFFFFF, 0xC0000000, 0xFFFFFFC0, 0xFFFFFFFF]
    grid = torch.tensor([[a, b, c, d] for a in edges for b in edges[::3]
                         for c in edges for d in edges[::5]],
                        dtype=torch.int64)
    from .device_streams import _stream_values
    keys = torch.arange(4, dtype=torch.int64, device=device)
    stream = _stream_values(99, 5, 1, keys, 3, 4 * 1000, device)
    for words in (grid.reshape(1, -1, 4).to(device),
                  stream.reshape(4, 1000, 4)):
        if not torch.equal(_launch_normals(words), reference(words)):
            return False
    return True


def _words_probe_agrees(reference, device):
    """The kernel against `reference` (device_streams' torch-operation
    stream_values) on rows at one and at several offsets."""
    keys = torch.tensor([0, 1, 7, 123456789, 0xFFFFFFFF], dtype=torch.int64,
                        device=device)
    seed = 0x0123456789ABCDEF
    # Scalars of 1 and 0 too: Triton treats them apart unless told not to.
    for site, epoch in ((11, 3), (1, 1), (0, 0)):
        for offsets in (6, 1, torch.tensor([0, 1, 2, 3, 4097],
                                           dtype=torch.int64, device=device)):
            for count in (1, 37, 2 * _BLOCK + 5):
                mine = _launch(seed, site, epoch, keys, offsets, count,
                               device)
                theirs = reference(seed, site, epoch, keys, offsets, count,
                                   device)
                if not torch.equal(mine, theirs):
                    return False
    return True


def _bernoulli_probe_agrees(reference, device):
    """The Bernoulli mode against the words of `reference` compared with
    the threshold by torch operations (device_streams' own way), into a
    wider tensor's column slice (a chunk of a row)."""
    keys = torch.tensor([0, 1, 7, 0xFFFFFFFF], dtype=torch.int64,
                        device=device)
    seed = 0x0123456789ABCDEF
    for threshold, b in ((5033165, 1.0 / 0.7), (0, 2.0), (1 << 24, 1e-3),
                         (8388608, 3.3)):
        for offsets in (1, torch.tensor([0, 3, 5, 4097], dtype=torch.int64,
                                        device=device)):
            wide = torch.full((4, 2 * _BLOCK + 9), -1.0, device=device)
            mine = _launch(seed, 1, 0, keys, offsets, _BLOCK + 7, device,
                           out=wide[:, 2:_BLOCK + 9], threshold=threshold,
                           b=b)
            words = reference(seed, 1, 0, keys, offsets, _BLOCK + 7, device)
            theirs = torch.zeros(words.shape, device=device).masked_fill_(
                (words >> 8) < threshold, b)
            if not (torch.equal(mine, theirs) and
                    bool((wide[:, :2] == -1).all()) and
                    bool((wide[:, _BLOCK + 9:] == -1).all())):
                return False
    return True


def bernoulli_into(out, seed, site, epoch, keys, offsets, threshold, b,
                   reference):
    """Fills `out` (float32, (rows, count), unit stride along rows) with
    device_streams' Bernoulli values in one kernel; False (nothing written)
    where that kernel failed its probe on this device. `reference`: the
    torch-operation stream_values."""
    device = out.device
    if not -3.4028234663852886e38 <= b <= 3.4028234663852886e38:
        return False  # not a finite float32: torch's own path rounds it
    if out.dtype != torch.float32 or out.stride(-1) != 1 or not _usable(
            "bernoulli", device,
            lambda d: _bernoulli_probe_agrees(reference, d)):
        return False
    _launch(seed, site, epoch, keys, offsets, out.shape[1], device, out=out,
            threshold=threshold, b=b)
    return True


def stream_values(seed, site, epoch, keys, offsets, count, device,
                  reference):
    """device_streams.stream_values from the fused kernel, or from
    `reference` (that function in torch operations) where the kernel failed
    its probe on this device."""
    if _usable("words", device, lambda d: _words_probe_agrees(reference, d)):
        return _launch(seed, site, epoch, keys, offsets, count, device)
    return reference(seed, site, epoch, keys, offsets, count, device)


def normals(words, reference):
    """device_streams._normals (Box-Muller over words (rows, pairs, 4)) from
    the fused kernel, or from `reference` where it failed its probe."""
    device = words.device
    if _usable("normals", device, lambda d: _normals_probe_agrees(
            reference, d)):
        return _launch_normals(words)
    return reference(words)

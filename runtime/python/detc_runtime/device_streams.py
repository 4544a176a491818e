"""Keyed values computed on the tensor's own device, equal to the C++ core's.

The core (`_core.fill_rows`) writes host memory. A keyed draw for a tensor
on a GPU (or any device but the CPU) is computed here instead, where the
tensor lives, so a training step copies no random values between host and
device and waits for nothing:

- Philox4x32-10 in int64 tensor arithmetic (on CUDA, one fused kernel:
  device_kernels). Each 32-bit word sits in the
  low half of an int64; a 32x32-bit product is split into 16-bit halves so
  that no intermediate passes 2^49 (torch has no uint32 multiply on every
  version and device).
- The core's transforms (Distributions.h, ExactMath.h: integer steps and
  IEEE +, -, *, / only) written as one torch operation per IEEE
  operation, in the core's order. Each of these torch operations is
  correctly rounded on every device, and no two are fused into an FMA (each
  is its own kernel), so the values are the core's bit for bit. (Not so
  torch.sqrt: torch 2.13's vectorised CPU kernel is off by an ulp at times,
  so both sides use ExactMath.h's Newton square root.) The tests compare
  this path with the core value by value on the CPU (DeviceStreamsTest).

Large draws are computed in chunks of about 2^22 values so the temporaries
stay a small multiple of the output's size. Integers use the core's
rejection (Lemire), whose consumption depends on the values: they cost one
device-to-host read of the per-row consumption when the range is not a
power of two; every other kind advances the offsets on the host by a count
known in advance.
"""
import math

import numpy as np
import torch

from . import device_kernels

_MASK32 = 0xFFFFFFFF
_MUL0, _MUL1 = 0xD2511F53, 0xCD9E8D57
_WEYL0, _WEYL1 = 0x9E3779B9, 0xBB67AE85
# Values computed per chunk (int64 temporaries of this many elements).
_CHUNK_VALUES = 1 << 22
# Devices without float64 arithmetic take the core's path and a copy.
_NO_FLOAT64 = frozenset(("mps",))
# Values a stream holds (Philox.h: 2^32 blocks of four).
_CAPACITY = 1 << 34


def supported(device):
    """Whether keyed values for `device` are computed here."""
    return device.type not in _NO_FLOAT64


def _mulhilo(m, x):
    """(high, low) 32-bit words of m * x, m a constant below 2^32, x an
    int64 tensor of values in [0, 2^32)."""
    ph = (x >> 16) * m  # < 2^48
    low_sum = (x & 0xFFFF) * m + ((ph & 0xFFFF) << 16)  # < 2^49
    return (ph >> 16) + (low_sum >> 32), low_sum & _MASK32


def philox(c0, c1, c2, c3, seed):
    """Philox4x32-10 of counters (c0, c1, c2, c3) (int64 tensors or ints,
    broadcast) under the 64-bit `seed`: four int64 tensors of 32-bit
    words, as Philox.h's philox4x32_10."""
    k0, k1 = seed & _MASK32, (seed >> 32) & _MASK32
    for rnd in range(10):
        if rnd:
            k0 = (k0 + _WEYL0) & _MASK32
            k1 = (k1 + _WEYL1) & _MASK32
        hi0, lo0 = _mulhilo(_MUL0, c0)
        hi1, lo1 = _mulhilo(_MUL1, c2)
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
    return c0, c1, c2, c3


def stream_values(seed, site, epoch, keys, offsets, count, device):
    """(rows, count) int64 tensor on `device`: values offsets[r] ..
    offsets[r] + count - 1 of stream (seed, site, epoch, keys[r]).
    `keys`: int64 tensor on the device; `offsets`: an int (every row at the
    same offset) or an int64 tensor on the device. From one fused kernel
    where device_kernels has one for the device, else from torch
    operations."""
    if device_kernels.available(device):
        return device_kernels.stream_values(seed, site, epoch, keys, offsets,
                                            count, device, _stream_values)
    return _stream_values(seed, site, epoch, keys, offsets, count, device)


def _stream_values(seed, site, epoch, keys, offsets, count, device):
    """stream_values in torch operations (the reference)."""
    rows = keys.shape[0]
    if isinstance(offsets, int):
        first, skip = offsets >> 2, offsets & 3
    else:
        first, skip = (offsets >> 2)[:, None], (offsets & 3)[:, None]
    blocks = (count + 3 + 3) // 4
    block = first + torch.arange(blocks, device=device, dtype=torch.int64)
    block = block.expand(rows, blocks)
    example = keys[:, None].expand(rows, blocks)
    words = torch.stack(philox(block, example, epoch & _MASK32,
                               site & _MASK32, seed), dim=-1)
    words = words.reshape(rows, 4 * blocks)
    if isinstance(skip, int):
        return words[:, skip:skip + count]
    index = skip + torch.arange(count, device=device, dtype=torch.int64)
    return words.gather(1, index)


# ExactMath.h's coefficients: each a correctly rounded division of exact
# integers, the same double the C++ compiler computes.
_LOG_COEFF = [1.0 / k for k in range(19, 0, -2)]
_SIN_COEFF = [(-1.0 if k % 2 else 1.0) / math.factorial(2 * k + 1)
              for k in range(7, -1, -1)]
_COS_COEFF = [(-1.0 if k % 2 else 1.0) / math.factorial(2 * k)
              for k in range(8, -1, -1)]
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_PI = 3.14159265358979311600e+00
_SQRT_HALF_BITS = 0x3fe6a09e667f3bcd


def _horner(coeff, x):
    p = x * coeff[0] + coeff[1]
    for c in coeff[2:]:
        p = p * x + c
    return p


def exact_log(x):
    """ExactMath.h's exact::log of a float64 tensor of positive normals."""
    b = x.view(torch.int64)
    t = ((b - _SQRT_HALF_BITS) >> 32) & _MASK32
    t = torch.where(t >= 1 << 31, t - (1 << 32), t)  # as a signed int32
    e = torch.div(t, 1 << 20, rounding_mode="floor")
    m = (b - e * (1 << 52)).view(torch.float64)
    s = (m - 1.0) / (m + 1.0)
    logm = (s * 2.0) * _horner(_LOG_COEFF, s * s)
    de = e.to(torch.float64)
    return (de * _LN2_LO + logm) + de * _LN2_HI


def exact_sqrt(x):
    """ExactMath.h's exact::sqrt of a float64 tensor of finite values >= 0
    (torch.sqrt is not correctly rounded on every version and device)."""
    g = ((x.view(torch.int64) >> 1) + 0x1FF8000000000000).view(torch.float64)
    for _ in range(4):
        g = (g + x / g) * 0.5
    return torch.where(x == 0.0, x, g)


def sin_cos_2pi(u):
    """ExactMath.h's exact::sinCos2Pi of a float64 tensor in [0, 1)."""
    q4 = u * 4.0
    q = (q4 + 0.5).to(torch.int64)
    f = (q4 - q.to(torch.float64)) * 0.25
    a = f * (2.0 * _PI)
    a2 = a * a
    s, c = a * _horner(_SIN_COEFF, a2), _horner(_COS_COEFF, a2)
    odd = (q & 1).bool()
    sin_abs, cos_abs = torch.where(odd, c, s), torch.where(odd, s, c)
    sin = torch.where((q & 2).bool(), -sin_abs, sin_abs)
    cos = torch.where(((q + 1) & 2).bool(), -cos_abs, cos_abs)
    return sin, cos


def _uniform_double(hi_word, lo_word):
    hi = (hi_word >> 5).to(torch.float64)
    lo = (lo_word >> 6).to(torch.float64)
    return (hi * 67108864.0 + lo) * (1.0 / 9007199254740992.0)


def _normals(v):
    """Distributions.h's normalPairFromRaw over v (rows, pairs, 4):
    (rows, 2 * pairs) float64, z0 and z1 of each pair side by side. From
    one fused kernel where device_kernels has one for the device."""
    if device_kernels.available(v.device):
        return device_kernels.normals(v, _torch_normals)
    return _torch_normals(v)


def _torch_normals(v):
    """_normals in torch operations (the reference)."""
    u1 = 1.0 - _uniform_double(v[..., 0], v[..., 1])
    u2 = _uniform_double(v[..., 2], v[..., 3])
    r = exact_sqrt(exact_log(u1) * -2.0)
    sn, cs = sin_cos_2pi(u2)
    return torch.stack((r * cs, r * sn), dim=-1).reshape(v.shape[0], -1)


def bernoulli_threshold(p):
    """Distributions.h's bernoulliThreshold."""
    if not p > 0.0:
        return 0
    if p >= 1.0:
        return 1 << 24
    return int(p * 16777216.0 + 0.5)


def _values_per_output(kind, double):
    if kind == "uniform":
        return 2 if double else 1
    if kind == "normal":
        return 2
    return 1


def _fill_fixed(kind, out, seed, site, epoch, keys, offsets, a, b):
    """Uniform, normal and bernoulli rows into the 2-D tensor `out`; returns
    the values each row consumed."""
    rows, n = out.shape
    double = out.dtype == torch.float64
    per = _values_per_output(kind, double)
    step = max(2, (_CHUNK_VALUES // max(rows, 1)) // per) & ~1
    threshold = bernoulli_threshold(a) if kind == "bernoulli" else 0
    for first in range(0, n, step):
        m = min(step, n - first)
        at = offsets + first * per
        if kind == "normal":
            pairs = (m + 1) // 2
            v = stream_values(seed, site, epoch, keys, at, 4 * pairs,
                              out.device)
            z = _normals(v.reshape(rows, pairs, 4))[:, :m]
            value = (z * b + a).to(out.dtype)
        elif kind == "uniform":
            v = stream_values(seed, site, epoch, keys, at, per * m,
                              out.device)
            if double:
                v = v.reshape(rows, m, 2)
                u = _uniform_double(v[..., 0], v[..., 1])
            else:
                u = (v >> 8).to(torch.float64) * (1.0 / 16777216.0)
            value = (u * (b - a) + a).to(out.dtype)
        elif device_kernels.available(out.device) and \
                device_kernels.bernoulli_into(
                    out[:, first:first + m], seed, site, epoch, keys, at,
                    threshold, b, _stream_values):
            continue  # written in place by one kernel
        else:  # bernoulli
            v = stream_values(seed, site, epoch, keys, at, m, out.device)
            # masked_fill_ rounds the Python float `b` to out's dtype as
            # the core's T(b) does, with no host tensor to copy over.
            value = torch.zeros(v.shape, dtype=out.dtype,
                                device=out.device).masked_fill_(
                                    (v >> 8) < threshold, b)
        out[:, first:first + m] = value
    return n * per if kind != "normal" else 4 * ((n + 1) // 2)


def _fill_integers(out, seed, site, epoch, keys, offsets, low, high):
    """Rows of integers in [low, high) by the core's boundedInt; returns the
    values each row consumed (an int64 tensor on the host, or an int)."""
    rows, n = out.shape
    span = high - low
    threshold = ((1 << 32) - span) % span
    if threshold == 0 or n == 0:  # no value is ever rejected
        step = max(1, _CHUNK_VALUES // max(rows, 1))
        for first in range(0, n, step):
            m = min(step, n - first)
            v = stream_values(seed, site, epoch, keys, offsets + first, m,
                              out.device)
            hi, _ = _mulhilo(span, v)
            out[:, first:first + m] = (hi + low).to(out.dtype)
        return n
    # Rejections are rare (the chance is threshold / 2^32 per value): draw
    # n values and a margin, and more if some row ran short.
    width = n + 16 + n // 64
    while True:
        v = stream_values(seed, site, epoch, keys, offsets, width, out.device)
        hi, lo = _mulhilo(span, v)
        accepted = lo >= threshold
        count = accepted.cumsum(1)
        if bool((count[:, -1] >= n).all()):
            break
        width *= 2
    chosen = accepted & (count <= n)
    out.copy_((hi[chosen].reshape(rows, n) + low).to(out.dtype))
    return ((count < n).sum(1) + 1).cpu()


# The last batch's keys on the last device: every keyed draw of a step
# uses the same keys, which then cross to the device once per batch. (The
# array is held, so `is` cannot match a new array at a recycled address.)
_keys_cache = [None, None, None]


def _device_keys(keys, device):
    if _keys_cache[0] is keys and _keys_cache[1] == device:
        return _keys_cache[2]
    tensor = _to_device(np.asarray(keys, dtype=np.int64), device)
    _keys_cache[:] = [keys, device, tensor]
    return tensor


def _to_device(array, device):
    """An int64 numpy array as a tensor on `device`, without waiting for
    the device: a copy from pageable host memory makes CUDA finish the
    queued work first (a synchronisation per step), one from pinned memory
    does not. torch's caching host allocator keeps the pinned block until
    the copy has run."""
    host = torch.as_tensor(array)
    if device.type != "cuda":
        return host.to(device)
    return host.pin_memory().to(device, non_blocking=True)


def fill_rows(kind, out, seed, site, epoch, keys, offsets, a=0.0, b=1.0):
    """`_core.fill_rows` for a tensor on any device: row r of `out` (its
    first dimension) from stream (seed, site, epoch, keys[r]) at
    offsets[r]; `offsets` (a numpy uint64 array) is advanced in place."""
    rows = out.shape[0]
    if rows != len(keys):
        raise ValueError("the output's first dimension (%d) must equal the "
                         "number of example keys (%d)" % (rows, len(keys)))
    if out.numel() == 0 or out.device.type == "meta":
        return out  # meta tensors have shapes, not values
    flat = out if out.is_contiguous() else torch.empty_like(
        out, memory_format=torch.contiguous_format)
    view = flat.view(rows, -1)
    device = out.device
    key_t = _device_keys(keys, device)
    if int(offsets.max()) + 4 * out[0].numel() + 64 > _CAPACITY:
        raise ValueError("a per-example stream is exhausted (more than "
                         "2^34 values)")
    if bool((offsets == offsets[0]).all()):
        at = int(offsets[0])
    else:
        at = _to_device(offsets.astype(np.int64), device)
    with torch.no_grad():
        if kind == "integers":
            used = _fill_integers(view, seed, site, epoch, key_t, at,
                                  int(a), int(b))
        else:
            used = _fill_fixed(kind, view, seed, site, epoch, key_t, at,
                               float(a), float(b))
        if flat is not out:
            out.copy_(flat)
    offsets += np.asarray(used, dtype=np.uint64)
    return out

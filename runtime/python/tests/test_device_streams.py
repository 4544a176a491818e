"""The device path of keyed draws (detc_runtime.device_streams) against the
C++ core, value for value: every distribution, dtype, offset layout and
chunking, on the CPU (the path is the one a CUDA tensor takes; torch's
elementwise operations round alike on every device). With CUDA present
the same comparisons run on the GPU as well, through the fused kernels
(device_kernels), which must pass their probes there; otherwise they print
SKIP. Where Triton is installed, the fused kernels also run on the CPU
under its interpreter."""
import os
import subprocess
import sys
import unittest

import numpy as np
import torch

import detc_runtime as rt
from detc_runtime import _core, device_kernels, device_streams, draws
from detc_runtime._state import STATE, KeyContext

SEED = 0x1234_5678_9ABC_DEF0
KEYS = np.array([0, 7, 3, 4_000_000_000, 12], dtype=np.int64)
# (kind, a, b, output dtypes)
CASES = [
    ("uniform", 0.0, 1.0, (torch.float32, torch.float64)),
    ("uniform", -2.5, 3.25, (torch.float32, torch.float64)),
    ("normal", 0.0, 1.0, (torch.float32, torch.float64)),
    ("normal", 1.5, 0.125, (torch.float32, torch.float64)),
    ("bernoulli", 0.3, 1.0 / 0.7, (torch.float32, torch.float64)),
    ("bernoulli", 0.999, 2.0, (torch.float32,)),
    ("integers", 0, 10, (torch.int64, torch.int32)),
    ("integers", -5, 3 << 30, (torch.int64,)),  # 25% of values rejected
    ("integers", 3, 3 + (1 << 20), (torch.int64,)),  # never rejected
]


def _offsets(kind):
    """Equal offsets (the common case) and unequal ones (after an integer
    draw), each starting mid-block."""
    return [np.full(len(KEYS), 6, dtype=np.uint64),
            np.array([0, 1, 2, 3, 4097], dtype=np.uint64)]


def _compare(test, device, shape_tail=(9,)):
    for kind, a, b, dtypes in CASES:
        for dtype in dtypes:
            for off in _offsets(kind):
                with test.subTest(kind=kind, a=a, dtype=dtype,
                                  offsets=off.tolist(), device=device):
                    want = np.empty((len(KEYS),) + shape_tail,
                                    dtype=torch.empty(0, dtype=dtype)
                                    .numpy().dtype)
                    want_off = off.copy()
                    _core.fill_rows(kind, want, SEED, 3, 5, KEYS, want_off,
                                    a, b)
                    got = torch.empty((len(KEYS),) + shape_tail, dtype=dtype,
                                      device=device)
                    got_off = off.copy()
                    device_streams.fill_rows(kind, got, SEED, 3, 5, KEYS,
                                             got_off, a, b)
                    test.assertTrue(np.array_equal(got.cpu().numpy(), want),
                                    "values differ")
                    test.assertEqual(got_off.tolist(), want_off.tolist())


class DeviceStreamsTest(unittest.TestCase):
    def test_philox_known_answers(self):
        zero = torch.zeros(1, dtype=torch.int64)
        words = device_streams.philox(zero, zero, zero, zero, 0)
        self.assertEqual([int(w) for w in words],
                         [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8])
        c = [torch.tensor([v]) for v in (0x243f6a88, 0x85a308d3, 0x13198a2e,
                                          0x03707344)]
        words = device_streams.philox(*c, 0x299f31d0 << 32 | 0xa4093822)
        self.assertEqual([int(w) for w in words],
                         [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1])

    def test_stream_values_equal_the_core(self):
        for off in (0, 1, 2, 3, 4, 4093):
            got = device_streams.stream_values(
                SEED, 9, 2, torch.tensor([17]), off, 23, torch.device("cpu"))
            want = _core.stream_values(SEED, 9, 2, 17, off, 23)
            self.assertEqual(got[0].tolist(), want.tolist())

    def test_every_distribution_and_dtype_equals_the_core(self):
        _compare(self, "cpu")
        _compare(self, "cpu", shape_tail=(2, 3))  # odd: normals drop one

    def test_chunked_draws_equal_the_core(self):
        saved = device_streams._CHUNK_VALUES
        device_streams._CHUNK_VALUES = 64  # chunks of 12 outputs per row
        try:
            _compare(self, "cpu", shape_tail=(101,))
        finally:
            device_streams._CHUNK_VALUES = saved

    def test_normals_cover_the_whole_range_of_the_transform(self):
        # Many values: every quadrant of sinCos2Pi, tiny u1 (large |z|).
        want = np.empty((1, 200_001), dtype=np.float64)
        _core.fill_rows("normal", want, 99, 1, 1, np.array([5]),
                        np.zeros(1, dtype=np.uint64), 0.0, 1.0)
        got = torch.empty(1, 200_001, dtype=torch.float64)
        device_streams.fill_rows("normal", got, 99, 1, 1, np.array([5]),
                                 np.zeros(1, dtype=np.uint64), 0.0, 1.0)
        self.assertTrue(np.array_equal(got.numpy(), want))
        self.assertGreater(float(got.abs().max()), 4.0)

    def test_keyed_calls_take_the_device_path_with_the_same_values(self):
        """draws.fill_ routes a non-CPU tensor to device_streams; forced
        on the CPU, every keyed call gives the core's values (the same
        batch, the same offsets as it goes)."""
        def run():
            STATE.batch = KeyContext(2, [4, 9, 1, 6])
            try:
                x = torch.ones(4, 6, 5)
                out = [rt.keyed(11, 1, torch.nn.functional.dropout)(x, 0.4),
                       rt.keyed(12, 1, torch.randn)(4, 3),
                       rt.keyed(12, 1, torch.randn)(4, 3),
                       rt.keyed(13, 1, torch.rand_like)(x.half()),
                       rt.keyed(14, 1, torch.randint)(2, 9, (4, 5)),
                       rt.keyed(15, 1, torch.nn.functional.dropout2d)(x, 0.5),
                       rt.keyed(16, 1, torch.randn)(3),  # not per example
                       torch.empty(4, 7).t().uniform_()]
                out[-1] = rt.keyed(17, 1, out[-1].uniform_)(-1.0, 1.0)
                return out
            finally:
                STATE.batch = None

        STATE.sequential.clear()
        core = run()
        STATE.sequential.clear()
        draws._DEVICE_PATH_ON_CPU = True
        try:
            device = run()
        finally:
            draws._DEVICE_PATH_ON_CPU = False
        for i, (a, b) in enumerate(zip(core, device)):
            self.assertEqual(a.dtype, b.dtype, i)
            self.assertTrue(torch.equal(a, b), "call %d differs" % i)

    def test_too_wide_an_integer_range_is_refused(self):
        out = np.empty((1, 3), dtype=np.int64)
        with self.assertRaisesRegex(ValueError, "high - low < 2"):
            _core.fill_rows("integers", out, 1, 1, 1, np.array([0]),
                            np.zeros(1, dtype=np.uint64), 0, 1 << 32)


class FusedKernelPolicyTest(unittest.TestCase):
    def test_a_kernel_that_fails_or_disagrees_is_turned_off(self):
        """A fused kernel whose probe raises (Triton cannot build it) or
        disagrees is not used on that device, once, with a warning: the
        draws take the exact path instead of crashing the run."""
        import io
        from contextlib import redirect_stderr

        def fails(device):
            raise RuntimeError("no PTX for this GPU")

        device = torch.device("cpu")
        saved = dict(device_kernels._checked)
        try:
            err = io.StringIO()
            with redirect_stderr(err):
                self.assertFalse(device_kernels._usable("t1", device, fails))
                self.assertFalse(device_kernels._usable(
                    "t2", device, lambda d: False))
                self.assertFalse(device_kernels._usable("t1", device, fails))
            self.assertIn("(t1) failed (RuntimeError: no PTX for this GPU)",
                          err.getvalue())
            self.assertIn("(t2) disagrees with the reference",
                          err.getvalue())
            self.assertEqual(err.getvalue().count("(t1)"), 1)
            self.assertTrue(device_kernels._usable("t3", device,
                                                   lambda d: True))
        finally:
            device_kernels._checked.clear()
            device_kernels._checked.update(saved)


# Run under Triton's interpreter (the kernels on the CPU): both probes, then
# the core's values through the device path.
_INTERPRETED_CHECK = r"""
import sys, unittest
import torch
sys.path.insert(0, %r)
import test_device_streams as t
from detc_runtime import device_kernels as dk, device_streams as ds, draws
cpu = torch.device("cpu")
assert dk.available(cpu)
assert dk._words_probe_agrees(ds._stream_values, cpu), "words"
assert dk._normals_probe_agrees(ds._torch_normals, cpu), "normals"
assert dk._bernoulli_probe_agrees(ds._stream_values, cpu), "bernoulli"
case = unittest.TestCase()
t._compare(case, "cpu", shape_tail=(3,))
assert dk._checked == {("words", cpu): True, ("normals", cpu): True,
                       ("bernoulli", cpu): True}, dk._checked
print("fused kernels == core under the interpreter")
"""


@unittest.skipUnless(device_kernels.triton is not None, "no Triton")
class InterpretedKernelsTest(unittest.TestCase):
    def test_fused_kernels_equal_the_core_under_the_interpreter(self):
        env = dict(os.environ, TRITON_INTERPRET="1")
        env.pop("DETC_FUSED_DRAWS", None)
        proc = subprocess.run(
            [sys.executable, "-c", _INTERPRETED_CHECK % os.path.dirname(
                os.path.abspath(__file__))],
            env=env, capture_output=True, text=True, timeout=600)
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])


@unittest.skipUnless(torch.cuda.is_available(), "no CUDA device")
class CudaStreamsTest(unittest.TestCase):
    @unittest.skipIf(device_kernels.triton is None, "no Triton")
    def test_cuda_draws_take_the_fused_kernels(self):
        """On CUDA the values come from the fused kernels, which passed
        their probes (a failed probe keeps the values exact but slow)."""
        _compare(self, "cuda", shape_tail=(5,))
        device = torch.device("cuda", torch.cuda.current_device())
        self.assertIs(device_kernels._checked.get(("words", device)), True)
        self.assertIs(device_kernels._checked.get(("normals", device)), True)
        self.assertIs(device_kernels._checked.get(("bernoulli", device)),
                      True)

    def test_cuda_values_equal_the_core(self):
        _compare(self, "cuda")
        _compare(self, "cuda", shape_tail=(2, 3))

    def test_cuda_draws_do_not_wait_for_the_device(self):
        """A step's keyed draws neither copy values to the host nor wait
        for the GPU (torch's sync debug mode raises on either), once the
        kernels are probed; integers whose range is not a power of two
        are the documented exception."""
        x = torch.ones(64, 256, device="cuda")
        dropout = rt.keyed(2, 1, torch.nn.functional.dropout)
        randn = rt.keyed(3, 1, torch.randn)
        for warm in (True, False):
            STATE.batch = KeyContext(0, list(range(64)))
            if not warm:
                torch.cuda.synchronize()
                torch.cuda.set_sync_debug_mode("error")
            try:
                dropout(x, 0.3)
                randn(x.shape, device="cuda")
                rt.keyed(4, 1, torch.rand_like)(x)
            finally:
                torch.cuda.set_sync_debug_mode("default")
                STATE.batch = None

    def test_cuda_dropout_under_autocast(self):
        STATE.batch = KeyContext(0, [0, 1, 2, 3])
        try:
            x = torch.ones(4, 16, device="cuda")
            with torch.autocast("cuda", dtype=torch.float16):
                y = rt.keyed(2, 1, torch.nn.functional.dropout)(x.half(), 0.5)
            self.assertEqual(y.device.type, "cuda")
        finally:
            STATE.batch = None
        STATE.batch = KeyContext(0, [0, 1, 2, 3])
        try:
            ref = rt.keyed(2, 1, torch.nn.functional.dropout)(
                torch.ones(4, 16).half(), 0.5)
        finally:
            STATE.batch = None
        self.assertTrue(torch.equal(y.cpu(), ref))


if __name__ == "__main__":
    if not torch.cuda.is_available():
        print("SKIP: CudaStreamsTest (no CUDA device)")
    if device_kernels.triton is None:
        print("SKIP: InterpretedKernelsTest (no Triton)")
    unittest.main()

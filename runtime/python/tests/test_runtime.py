"""Tests of the detc_runtime Python package (run by ctest with the built
package on PYTHONPATH): the core's values, zero-copy fills, samplers,
example keys, the example scope and the keyed draws."""
import collections
import contextlib
import hashlib
import io
import json
import os
import pickle
import random
import sys
import unittest

import numpy as np
import torch

import detc_runtime as rt
from detc_runtime import _core
from detc_runtime._state import STATE, KeyContext


class CoreTest(unittest.TestCase):
    def test_known_answer_vectors(self):
        self.assertEqual(_core.philox4x32_10((0, 0, 0, 0), (0, 0)),
                         [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8])
        self.assertEqual(
            _core.philox4x32_10((0x243f6a88, 0x85a308d3, 0x13198a2e,
                                 0x03707344), (0xa4093822, 0x299f31d0)),
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1])

    def test_stream_values_follow_the_layout(self):
        # counter = {k/4, example, epoch, site}, key = seed words.
        seed = (7 << 32) | 5
        block = _core.philox4x32_10((1, 9, 3, 2), (5, 7))
        values = _core.stream_values(seed, 2, 3, 9, 4, 4)
        self.assertEqual(list(values), block)
        self.assertEqual(_core.stream_words(seed, 2, 3, 9, 5, 3),
                         tuple(block[1:]))
        with self.assertRaises(ValueError):
            _core.stream_words(seed, 2, 3, 9, 0, 65)

    def test_uniform_rows_are_the_documented_transform(self):
        out = np.empty((2, 5), np.float32)
        offsets = np.zeros(2, np.uint64)
        _core.fill_rows("uniform", out, 11, 1, 0, np.array([4, 9]), offsets)
        for row, key in enumerate([4, 9]):
            raw = _core.stream_values(11, 1, 0, key, 0, 5)
            expect = (raw >> 8).astype(np.float32) * np.float32(2 ** -24)
            self.assertTrue(np.array_equal(out[row], expect))
        self.assertEqual(list(offsets), [5, 5])

    def test_rows_depend_on_key_and_offset_not_position(self):
        a = np.empty((3, 4), np.float64)
        _core.fill_rows("normal", a, 1, 2, 3, np.array([0, 1, 2]),
                        np.zeros(3, np.uint64))
        b = np.empty((1, 4), np.float64)
        _core.fill_rows("normal", b, 1, 2, 3, np.array([2]),
                        np.zeros(1, np.uint64))
        self.assertTrue(np.array_equal(a[2], b[0]))
        # Continuing at the offset a first fill left equals one longer fill.
        first, second = np.empty((1, 3), np.float32), np.empty((1, 5), np.float32)
        off = np.zeros(1, np.uint64)
        _core.fill_rows("uniform", first, 1, 2, 3, np.array([7]), off)
        _core.fill_rows("uniform", second, 1, 2, 3, np.array([7]), off)
        whole = np.empty((1, 8), np.float32)
        _core.fill_rows("uniform", whole, 1, 2, 3, np.array([7]),
                        np.zeros(1, np.uint64))
        self.assertTrue(np.array_equal(np.concatenate([first, second], 1),
                                       whole))

    def test_zero_copy_into_torch(self):
        t = torch.zeros(4, 3)
        _core.fill_rows("uniform", t.numpy(), 1, 1, 1, np.arange(4),
                        np.zeros(4, np.uint64))
        self.assertTrue(bool((t > 0).any()))  # written through the view

    def test_bad_buffers_are_rejected(self):
        keys, off = np.arange(2), np.zeros(2, np.uint64)
        with self.assertRaisesRegex(ValueError, "C-contiguous"):
            _core.fill_rows("uniform", np.empty((3, 2), np.float32).T, 0, 0,
                            0, keys, off)
        with self.assertRaisesRegex(ValueError, "first dimension"):
            _core.fill_rows("uniform", np.empty((3, 2), np.float32), 0, 0, 0,
                            keys, off)
        with self.assertRaisesRegex(ValueError, "dtype"):
            _core.fill_rows("normal", np.empty((2, 2), np.int16), 0, 0, 0,
                            keys, off)
        with self.assertRaisesRegex(ValueError, "unknown distribution"):
            _core.fill_rows("cauchy", np.empty((2, 2)), 0, 0, 0, keys, off)

    def test_bernoulli_and_integers(self):
        mask = np.empty((1, 100000), np.float32)
        _core.fill_rows("bernoulli", mask, 3, 3, 3, np.array([0]),
                        np.zeros(1, np.uint64), 0.75, 4.0)
        self.assertEqual(set(np.unique(mask)), {0.0, 4.0})
        self.assertAlmostEqual(float((mask > 0).mean()), 0.75, delta=0.01)
        ints = np.empty((1, 10000), np.int64)
        _core.fill_rows("integers", ints, 3, 3, 3, np.array([0]),
                        np.zeros(1, np.uint64), -2, 3)
        self.assertEqual(set(np.unique(ints)), {-2, -1, 0, 1, 2})

    def test_permutation(self):
        p = _core.permutation(1000, 5, 1, 0)
        self.assertEqual(sorted(p.tolist()), list(range(1000)))
        self.assertTrue(np.array_equal(p, _core.permutation(1000, 5, 1, 0)))
        self.assertFalse(np.array_equal(p, _core.permutation(1000, 5, 1, 1)))


class SamplerTest(unittest.TestCase):
    def test_a_custom_sampler_is_taken_as_it_comes_and_restarted_from_its_origin(self):
        # minGPT's endless RandomSampler(replacement=True, num_samples=1e10)
        # under a keyed loader: its indices are taken as they come (they
        # were made into a list first: MemoryError). Its order comes from
        # a seed it draws from torch's generator when its iteration
        # starts: a restart at a position makes it again from what the
        # epoch started from (the loader's origin, which a checkpoint
        # saves: the same batches follow); without it, it is refused (exit
        # 3: Mismatch) — it gave other batches with exit 0. A
        # SequentialSampler's order is fixed: restarted.
        from torch.utils.data import (DataLoader, RandomSampler,
                                      SequentialSampler)
        from detc_runtime import values
        data = list(range(10))
        torch.manual_seed(0)
        endless = rt.keyed_loader(21, DataLoader)(
            data, batch_size=4, sampler=RandomSampler(
                data, replacement=True, num_samples=int(1e10)))
        it = iter(endless)
        self.assertEqual(len(next(it)), 4)
        start = endless.generator.get_state()
        origin = endless._detc_origin(0)
        rest = [next(it).tolist() for _ in range(3)]
        torch.manual_seed(99)  # the restarted run's generator is elsewhere
        again = endless._detc_iter_at(0, 1, 4, start, origin=origin)
        self.assertEqual([next(again).tolist() for _ in range(3)], rest)
        with self.assertRaises(values.Mismatch) as caught:
            endless._detc_iter_at(0, 3, 12, start)
        self.assertIn("a sampler detc does not key (a RandomSampler)",
                      str(caught.exception))
        ordered = rt.keyed_loader(22, DataLoader)(
            data, batch_size=4, sampler=SequentialSampler(data))
        again = ordered._detc_iter_at(0, 1, 4, ordered.generator.get_state())
        self.assertEqual(next(again).tolist(), [4, 5, 6, 7])

    def test_a_script_sampler_drawing_from_numpy_is_restarted_from_its_origin(self):
        # A sampler of the script's that shuffles with numpy's global
        # generator when its iteration starts: the origin holds numpy's
        # (and random's) state too, so the restart's order is the
        # checkpointed run's whatever numpy holds then.
        import numpy
        from torch.utils.data import DataLoader

        class NumpyShuffle(torch.utils.data.Sampler):
            def __init__(self, n):
                self.n = n

            def __iter__(self):
                return iter(numpy.random.permutation(self.n).tolist())

            def __len__(self):
                return self.n

        data = list(range(12))
        numpy.random.seed(1)
        loader = rt.keyed_loader(23, DataLoader)(
            data, batch_size=3, sampler=NumpyShuffle(12))
        it = iter(loader)
        next(it)
        start, origin = loader.generator.get_state(), loader._detc_origin(0)
        rest = [b.tolist() for b in it]
        numpy.random.seed(7)
        again = loader._detc_iter_at(0, 1, 3, start, origin=origin)
        self.assertEqual([b.tolist() for b in again], rest)

    def test_a_sampler_drawing_index_by_index_is_made_again_and_checked(self):
        # A sampler of the script's that draws each index from numpy's
        # global generator as the loader asks for it: only its first index
        # was drawn from the origin at a restart, the skipped ones from
        # whatever numpy held: other batches, exit 0. Every index the
        # checkpointed run had taken is now drawn again from the origin and
        # compared with what that run took (their count and digest); later
        # indices come from the state the restore sets. An index the
        # checkpointed run drew after other code moved numpy's generator
        # cannot be made again: Mismatch (exit 3), not other batches.
        import numpy
        from torch.utils.data import DataLoader
        from detc_runtime import values

        class EachIndex(torch.utils.data.Sampler):
            def __init__(self, n):
                self.n = n

            def __iter__(self):
                for _ in range(self.n):
                    yield int(numpy.random.randint(self.n))

            def __len__(self):
                return self.n

        data = list(range(12))
        numpy.random.seed(1)
        loader = rt.keyed_loader(24, DataLoader)(
            data, batch_size=3, sampler=EachIndex(12))
        it = iter(loader)
        next(it)
        start, origin = loader.generator.get_state(), loader._detc_origin(0)
        self.assertEqual(origin["drawn"], 3)
        at_checkpoint = numpy.random.get_state()
        rest = [b.tolist() for b in it]
        numpy.random.seed(7)
        again = loader._detc_iter_at(0, 1, 3, start, origin=origin)
        numpy.random.set_state(at_checkpoint)  # the fingerprint's restore
        self.assertEqual([b.tolist() for b in again], rest)
        # Epoch 1: something else draws from numpy between two batches.
        it = iter(loader)
        next(it)
        numpy.random.rand()
        next(it)
        start, origin = loader.generator.get_state(), loader._detc_origin(1)
        with self.assertRaises(values.Mismatch) as caught:
            loader._detc_iter_at(1, 2, 6, start, origin=origin)
        self.assertIn("its indices up to batch 2 are not the checkpointed "
                      "run's", str(caught.exception))

    def test_a_custom_batch_sampler_is_keyed_and_restarted_from_its_origin(self):
        # A batch_sampler of the script's (a permutation drawn from torch's
        # generator as its iteration starts, grouped): its loader was not
        # keyed, and a restart in a later epoch drew another permutation.
        # Keyed now: its batches come as lists of example keys, and a
        # restart at a position makes the same batches again. Something
        # other than lists of indices stops the run (exit 3) naming the
        # loader.
        from torch.utils.data import DataLoader

        class Grouped(torch.utils.data.Sampler):
            def __init__(self, n, size):
                self.n, self.size = n, size

            def __iter__(self):
                order = torch.randperm(self.n).tolist()
                return iter([order[i:i + self.size]
                             for i in range(0, self.n, self.size)])

            def __len__(self):
                return -(-self.n // self.size)

        data = list(range(12))
        torch.manual_seed(2)
        loader = rt.keyed_loader(25, DataLoader)(
            data, batch_sampler=Grouped(12, 3))
        self.assertIsInstance(loader, rt.KeyedDataLoader)
        list(loader)  # epoch 0
        it = iter(loader)
        next(it)
        self.assertEqual(loader._detc_sampler.epoch, 1)
        start, origin = loader.generator.get_state(), loader._detc_origin(1)
        rest = [b.tolist() for b in it]
        torch.manual_seed(5)
        again = loader._detc_iter_at(1, 1, 3, start, origin=origin)
        self.assertEqual([b.tolist() for b in again], rest)

        class Pairs(Grouped):
            def __iter__(self):
                return iter([[(0, 320), (1, 320)]])

        odd = rt.keyed_loader(26, DataLoader)(data, batch_sampler=Pairs(2, 2))
        with self.assertRaises(SystemExit) as caught:
            next(iter(odd))
        self.assertEqual(caught.exception.code, 3)

    def _run_after_header(self, module, text, lines):
        """Runs `lines` in a fresh interpreter after the transformed
        script's header call `key_imported_loaders(5)`, with `module`
        (source `text`) importable; returns what it printed, split."""
        import subprocess
        import sys
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, module + ".py"), "w") as f:
                f.write(text)
            run = ("import sys; sys.path.insert(0, %r)\n"
                   "import detc_runtime as rt\n"
                   "rt.key_imported_loaders(5)\n" % d) + lines
            env = dict(os.environ, PYTHONPATH=os.path.dirname(
                os.path.dirname(rt.__file__)))
            out = subprocess.run([sys.executable, "-c", run],
                                 capture_output=True, text=True, env=env)
            self.assertEqual(out.returncode, 0, out.stderr)
            return out.stdout.split()

    def test_program_modules_importing_dataloader_from_its_module_get_it_keyed(self):
        # `from torch.utils.data.dataloader import DataLoader` in a module
        # of the program (minGPT's trainer.py) bound torch's own class: its
        # loaders were not keyed. After key_imported_loaders the module's
        # global is the keyed class; torch's own module keeps its class.
        printed = self._run_after_header(
            "detc_probe_trainer",
            "from torch.utils.data.dataloader import DataLoader\n"
            "def make():\n"
            "    return DataLoader(list(range(6)), batch_size=2,"
            " shuffle=True)\n",
            "import detc_probe_trainer as t\n"
            "import torch.utils.data.dataloader as torch_module\n"
            "loader = t.make()\n"
            "print(isinstance(loader, rt.KeyedDataLoader), "
            "torch_module.DataLoader.__module__, len(list(loader)))\n")
        self.assertEqual(printed,
                         ["True", "torch.utils.data.dataloader", "3"])

    def test_loaders_modules_construct_have_a_site_per_line(self):
        # A helper building a training and a validation loader
        # (RepDistiller's get_cifar100_dataloaders) gave both the header's
        # one site: their positions overwrote each other in the sidecar,
        # and a resume was refused. Each line constructing loaders has a
        # site of its own; a loader built again on the same line (every
        # epoch) keeps it.
        printed = self._run_after_header(
            "detc_probe_loaders",
            "from torch.utils.data import DataLoader\n"
            "def make():\n"
            "    train = DataLoader(list(range(6)), batch_size=2,"
            " shuffle=True)\n"
            "    val = DataLoader(list(range(4)), batch_size=2)\n"
            "    return train, val\n",
            "import detc_probe_loaders as m\n"
            "a, b = m.make()\n"
            "c, _ = m.make()\n"
            "print(a._detc_site != b._detc_site, "
            "a._detc_site == c._detc_site)\n")
        self.assertEqual(printed, ["True", "True"])

    def test_keys_carry_epoch_and_pickle(self):
        key = rt.ExampleKey(12, 3)
        self.assertEqual(key, 12)
        copy = pickle.loads(pickle.dumps(key))
        self.assertEqual((int(copy), copy.epoch), (12, 3))

    def test_epochs_and_resume_mid_epoch(self):
        s = rt.KeyedSampler(10, True, 99, 4)
        s.begin_epoch()
        e0 = [int(k) for k in s]
        s.begin_epoch()
        e1 = list(s)
        self.assertNotEqual(e0, [int(k) for k in e1])
        self.assertEqual({k.epoch for k in e1}, {1})
        r = rt.KeyedSampler(10, True, 99, 4)
        r.resume(1, 6)
        r.begin_epoch()
        self.assertEqual([int(k) for k in r], [int(k) for k in e1[6:]])

    def test_distributed_shards_cover_the_permutation(self):
        shards = []
        for rank in range(3):
            s = rt.KeyedDistributedSampler(10, 3, rank, True, False, 7, 2)
            s.set_epoch(4)
            s.begin_epoch()
            shards.append([int(k) for k in s])
        self.assertEqual(len({len(x) for x in shards}), 1)
        self.assertEqual(set(sum(shards, [])), set(range(10)))

    def test_loader_sets_batch_keys(self):
        from torch.utils.data import DataLoader, TensorDataset

        make = rt.keyed_loader(1, DataLoader)
        loader = make(TensorDataset(torch.arange(10)), batch_size=4,
                      shuffle=True)
        for (x,) in loader:
            self.assertEqual([int(k) for k in STATE.batch.keys], x.tolist())
        self.assertIsNone(STATE.batch)

    def test_loader_rebuilt_over_a_batch_sampler_stays_keyed(self):
        # accelerate's prepare (Hugging Face's Trainer) rebuilds a keyed
        # loader as DataLoader(dataset, batch_sampler=BatchSampler(its
        # keyed sampler, ...)): still keyed, same order, same keys; a
        # plain sampler inside a BatchSampler is keyed too.
        from torch.utils.data import (BatchSampler, DataLoader,
                                      RandomSampler, TensorDataset)

        data = TensorDataset(torch.arange(10))
        make = rt.keyed_loader(1, DataLoader)
        first = make(data, batch_size=4, shuffle=True)
        rebuilt = make(data, batch_sampler=BatchSampler(
            first._detc_sampler, 4, False), num_workers=2)
        self.assertIs(rebuilt._detc_sampler, first._detc_sampler)
        other = make(data, batch_sampler=BatchSampler(RandomSampler(data), 3,
                                                      True))
        self.assertIsInstance(other._detc_sampler, rt.KeyedSampler)
        for loader, size in ((rebuilt, 4), (other, 3)):
            for (x,) in loader:
                self.assertEqual([int(k) for k in STATE.batch.keys],
                                 x.tolist())
                self.assertLessEqual(len(x), size)

    def test_an_iterator_over_a_keyed_loader_is_saved_by_its_position(self):
        # `it = iter(loader)` kept across the loops, `next(it)` per step
        # (MixMatch, FixMatch, SSD): encoded as its position, decoded by
        # making the script's iterator again there — the same batches
        # follow, in the same epoch, and the loader's generator ends as it
        # was; with workers too. The JSON holds no iterator object.
        import json
        from torch.utils.data import DataLoader, TensorDataset
        from detc_runtime import values

        for workers in (0, 2):
            torch.manual_seed(0)
            loader = rt.keyed_loader(5, DataLoader)(
                TensorDataset(torch.arange(10)), batch_size=3, shuffle=True,
                num_workers=workers)
            list(loader)  # epoch 0
            it = iter(loader)  # epoch 1
            next(it)
            encoded = json.loads(json.dumps(values.encode(it)))
            state = loader.generator.get_state()
            rest = [x.tolist() for (x,) in it]
            self.assertEqual(len(rest), 3)
            iter(loader)  # the loader moved on
            again = values.decode(encoded, lambda: it)
            self.assertIsNot(again, it)
            self.assertEqual(again.epoch, 1)
            self.assertTrue(torch.equal(loader.generator.get_state(), state))
            self.assertEqual([x.tolist() for (x,) in again], rest)
            # Its variable unbound where the restore runs (made in a
            # function below the loops' outermost one: skipped on the way
            # in): made again over the loader made last at its site.
            again = values.decode(encoded, lambda: None)
            self.assertEqual([x.tolist() for (x,) in again], rest)
            # The same site's loader with another batch size (a size flag
            # changed, style-based-gan's loader rebuilt per resolution):
            # its batches differ; refused, not continued.
            other = rt.keyed_loader(5, DataLoader)(
                TensorDataset(torch.arange(10)), batch_size=4, shuffle=True)
            with self.assertRaisesRegex(values.Mismatch,
                                        "batch size 4 now, 3 in the "
                                        "checkpointed run"):
                values.decode(encoded, lambda: iter(other))
            # No loader at its site made in this run: nothing to continue.
            elsewhere = json.loads(json.dumps(encoded))
            elsewhere["loader_iterator"]["site"] = 999
            with self.assertRaisesRegex(values.UnsavableValue,
                                        "has made no such loader"):
                values.decode(elsewhere, lambda: None)

    def test_a_keyed_sampler_taken_by_an_unkeyed_loader_is_reported(self):
        # What accelerate did where torch's DataLoader was not keyed: a
        # plain DataLoader over the keyed loader's sampler. Its examples
        # run without scopes: the run says so; a keyed loader does not.
        import contextlib
        import io
        from torch.utils.data import BatchSampler, DataLoader, TensorDataset

        data = TensorDataset(torch.arange(6))
        keyed = rt.keyed_loader(7, DataLoader)(data, batch_size=2,
                                               shuffle=True)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            list(keyed)
        self.assertNotIn("did not key", err.getvalue())
        fresh = rt.keyed_loader(8, DataLoader)(data, batch_size=2,
                                               shuffle=True)
        with contextlib.redirect_stderr(err):
            list(DataLoader(data, batch_sampler=BatchSampler(
                fresh._detc_sampler, 2, False)))
        self.assertIn("a DataLoader detc did not key iterates the keyed "
                      "sampler of the loader at site 8", err.getvalue())

    def test_a_dropped_loaders_workers_stop_without_the_cycle_collector(self):
        # A keyed loader and its last iterator once held each other: a
        # loader dropped mid-epoch or with persistent workers left its
        # workers to the cycle collector, which closed their index queues
        # before DataLoader's shutdown could stop them: each worker then
        # held the collecting code (any line of the script) for 5 s.
        import gc
        import weakref
        from torch.utils.data import DataLoader, TensorDataset
        from detc_runtime.replay import REPLAY

        make = rt.keyed_loader(31, DataLoader)
        data = TensorDataset(torch.arange(10))
        gc.disable()
        self.addCleanup(gc.enable)
        for options in ({"persistent_workers": True}, {}):
            loader = make(data, batch_size=4, shuffle=True, num_workers=2,
                          **options)
            for _ in loader:
                break
            base = weakref.ref(REPLAY.loaders[31].base)
            workers = list(base()._workers)
            del loader, _
            # The site's next loader takes its place in the replay
            # bookkeeping: the last reference to the old one goes.
            next(iter(make(data, batch_size=4)))
            self.assertIsNone(base(), options)
            for w in workers:
                w.join(timeout=1)
            self.assertFalse(any(w.is_alive() for w in workers), options)

    def test_keys_pair_with_what_was_fetched(self):
        # A custom random sampler is iterated once per epoch (its order is
        # not reproducible by iterating it again); unbatched loading, and
        # workers with persistent_workers (the loader's first iterator and
        # its recorder are reused), pair each batch with its own keys.
        from torch.utils.data import DataLoader, Sampler, TensorDataset

        class Shuffled(Sampler):
            def __init__(self):
                pass  # torch 1.13's Sampler takes a data source, 2.x none

            def __iter__(self):
                return iter(torch.randperm(10).tolist())

            def __len__(self):
                return 10

        data = TensorDataset(torch.arange(10))
        make = rt.keyed_loader(1, DataLoader)
        for options in ({"batch_size": 3, "sampler": Shuffled()},
                        {"batch_size": None, "shuffle": True},
                        {"batch_size": 4, "shuffle": True, "num_workers": 2,
                         "persistent_workers": True}):
            loader = make(data, **options)
            for _ in range(2):
                for batch in loader:
                    x = batch[0]
                    self.assertEqual([int(k) for k in STATE.batch.keys],
                                     x.view(-1).tolist(), options)
                # Leaving an epoch early drops its recorded batches.
                for batch in loader:
                    break

    def test_fetch_guard_restores_once_per_batch(self):
        from torch.utils.data import DataLoader, Dataset

        class Noisy(Dataset):
            def __len__(self):
                return 6

            @rt.example_scope(5, ((1, "torch"),))
            def __getitem__(self, i):
                return torch.rand(1)

        # The global generator is untouched: the scopes restore it, and the
        # keyed loader draws its per-epoch worker seed from its own
        # generator (a plain DataLoader takes one global value per epoch).
        torch.manual_seed(3)
        expected = torch.random.get_rng_state()
        loader = rt.keyed_loader(2, DataLoader)(Noisy(), batch_size=4)
        values = torch.cat([b.view(-1) for b in loader])
        self.assertTrue(torch.equal(torch.random.get_rng_state(), expected))
        direct = torch.cat([Noisy()[rt.ExampleKey(i, 0)] for i in range(6)])
        self.assertTrue(torch.equal(values, direct))


    def test_batch_scope_keys_global_draws_by_batch(self):
        # With a batch scope, what the loop body draws from the global
        # generators depends on the batch (epoch, first example key), not
        # on what was drawn before: after a resume mid-epoch, with the
        # global generators in any state, the remaining batches draw what
        # the uninterrupted run drew; without one, they do not.
        from torch.utils.data import DataLoader, TensorDataset

        data = TensorDataset(torch.arange(12))

        def draws(batch_scope, resume_at=None, disturb=False):
            torch.manual_seed(0)
            np.random.seed(0)
            make = rt.keyed_loader(3, DataLoader,
                                   gens=((0, "torch"), (0, "numpy")),
                                   batch_scope=batch_scope)
            loader = make(data, batch_size=3, shuffle=True)
            if resume_at is not None:
                loader._detc_sampler.resume(0, resume_at)
            if disturb:
                torch.rand(5)
                np.random.rand(7)
            return [(int(x[0]), float(torch.rand(1)), float(np.random.rand()))
                    for (x,) in loader]

        full = draws(9)
        self.assertEqual(len(full), 4)
        self.assertEqual(draws(9, resume_at=6, disturb=True), full[2:])
        self.assertNotEqual(draws(None, resume_at=6, disturb=True),
                            draws(None)[2:])
        # Distinct batches draw distinct values.
        self.assertEqual(len({d[1] for d in full}), 4)


class OverlayTest(unittest.TestCase):
    """An imported module's edited copy (overlay.py, docs/jit.md): it runs
    in place of the file detc read, keeps the file's name, and any other
    file is exit 3, never the edits."""

    def _module(self, folder, name, text):
        import hashlib
        path = os.path.join(folder, name + ".py")
        with open(path, "w") as f:
            f.write(text)
        return hashlib.sha256(text.encode()).hexdigest()

    def test_the_edited_copy_runs_only_over_the_file_detc_read(self):
        import subprocess
        import sys
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            sha = self._module(d, "detc_overlay_probe", "VALUE = 'file'\n")
            run = ("import sys; sys.path.insert(0, %r)\n"
                   "from detc_runtime import overlay\n"
                   "overlay.install('detc_overlay_probe', %r, "
                   "\"VALUE = 'edited'\\nWHERE = __file__\\n\")\n"
                   "import detc_overlay_probe as m\n"
                   "print(m.VALUE, m.WHERE == m.__file__, "
                   "m.__file__.endswith('detc_overlay_probe.py'), "
                   "'detc_overlay_probe' in overlay.APPLIED)\n")
            env = dict(os.environ, PYTHONPATH=os.path.dirname(
                os.path.dirname(rt.__file__)))
            out = subprocess.run([sys.executable, "-c", run % (d, sha)],
                                 capture_output=True, text=True, env=env)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(out.stdout.split(), ["edited", "True", "True",
                                                  "True"])
            # The file changed since the transform: exit 3, naming it.
            self._module(d, "detc_overlay_probe", "VALUE = 'changed'\n")
            out = subprocess.run([sys.executable, "-c", run % (d, sha)],
                                 capture_output=True, text=True, env=env)
            self.assertEqual(out.returncode, 3, out.stderr)
            self.assertIn("detc_overlay_probe.py (module 'detc_overlay_probe') "
                          "is not the file detc transformed", out.stderr)
            self.assertNotIn("edited", out.stdout)
            # Imported before the header installed the copy: exit 3.
            early = run.replace("from detc_runtime import overlay\n",
                                "import detc_overlay_probe\n"
                                "from detc_runtime import overlay\n")
            out = subprocess.run([sys.executable, "-c", early % (d, sha)],
                                 capture_output=True, text=True, env=env)
            self.assertEqual(out.returncode, 3, out.stderr)
            self.assertIn("was imported before", out.stderr)


class SpawnHandoverTest(unittest.TestCase):
    def test_spawned_workers_get_what_detc_flags_said(self):
        # detc takes its flags off the parent's command line, which the
        # workers torch.multiprocessing spawns get: --detc-checkpoint went
        # nowhere (workers wrote hint checkpoints to the default path).
        # They get it in their environment, only while spawning; the
        # parent's own environment is left as it was.
        import subprocess
        import sys
        import tempfile
        script = ("import os, sys\n"
                  "import detc_runtime as _detc_rt\n"
                  "_detc_rt.configure()\n"
                  "import torch.multiprocessing as mp\n"
                  "def worker(rank):\n"
                  "    print('worker', os.environ.get('DETC_CHECKPOINT'),\n"
                  "          os.environ.get('DETC_RESUME'), sys.argv[1:])\n"
                  "if __name__ == '__main__':\n"
                  "    mp.spawn(worker, nprocs=1)\n"
                  "    print('parent', os.environ.get('DETC_CHECKPOINT'))\n")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.py")
            with open(path, "w") as f:
                f.write(script)
            env = dict(os.environ, DETC_QUIET="1", PYTHONPATH=os.path.dirname(
                os.path.dirname(rt.__file__)))
            env.pop("DETC_CHECKPOINT", None)
            out = subprocess.run([sys.executable, path, "--detc-checkpoint",
                                  "h.ckpt", "--x"], capture_output=True,
                                 text=True, env=env, cwd=d)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(out.stdout.splitlines(), [
                "worker %s None ['--x']" % os.path.join(
                    os.path.realpath(d), "h.ckpt"),
                "parent None"])


class _Trainer:
    """minGPT's Trainer, shortened: a model, a step counter, a dataset and
    the callbacks the script registered."""

    def __init__(self, model, data, callback):
        self.model = model
        self.data = data
        self.callbacks = {"on_batch_end": [callback]}
        self.iter_num = 0


def _on_batch_end(trainer):
    pass


def _other_callback(trainer):
    pass


class FieldsTest(unittest.TestCase):
    def test_an_object_holding_the_setups_things_is_saved_field_by_field(self):
        # Encoded whole it was "cannot be saved" (its callbacks, its
        # dataset): minGPT's restarts were refused. Field by field: the
        # counter and the model's state are saved and restored into the
        # restarted run's object; its callbacks and dataset are the
        # setup's, kept, and checked to be the same.
        import json
        from torch.utils.data import TensorDataset
        from detc_runtime import values
        torch.manual_seed(0)
        data = TensorDataset(torch.arange(6))
        t = _Trainer(torch.nn.Linear(2, 2), data, _on_batch_end)
        t.iter_num = 7
        tensors = []
        saved = json.loads(json.dumps(values.encode(t, "trainer", tensors)))
        again = _Trainer(torch.nn.Linear(2, 2), data, _on_batch_end)
        back = values.decode(saved, lambda: again, tensors)
        self.assertIs(back, again)
        self.assertEqual(again.iter_num, 7)
        self.assertTrue(torch.equal(again.model.weight, t.model.weight))
        self.assertEqual(again.callbacks["on_batch_end"], [_on_batch_end])
        # Another callback registered by the restarted run's setup: exit 3.
        other = _Trainer(torch.nn.Linear(2, 2), data, _other_callback)
        tensors = []
        saved = json.loads(json.dumps(values.encode(t, "trainer", tensors)))
        with self.assertRaises(values.Mismatch) as caught:
            values.decode(saved, lambda: other, tensors)
        self.assertIn("_Trainer.callbacks is not what the checkpointed "
                      "run's setup made", str(caught.exception))
        # Something else that cannot be saved, and is no setup's: refused.
        import threading
        t.lock = threading.Lock()
        with self.assertRaises(values.UnsavableValue) as caught:
            values.encode(t, "trainer", [])
        self.assertIn("trainer.lock", str(caught.exception))


class _WindowMeter:
    """DeiT's SmoothedValue: a window in a deque, a count and a total."""

    def __init__(self):
        import collections
        self.deque = collections.deque(maxlen=3)
        self.count = 0
        self.total = 0.0

    def update(self, v):
        self.deque.append(v)
        self.count += 1
        self.total += v


class ValuesTest(unittest.TestCase):
    def test_a_loader_holding_its_device_round_trips(self):
        # timm's PrefetchLoader keeps the `device` (and a dtype) it moves
        # batches to: the whole loader was "cannot be saved" and every
        # resume from its recovery checkpoint stopped (exit 2).
        import json
        from detc_runtime import values
        saved = json.loads(json.dumps(values.encode(
            [torch.device("cpu"), torch.float16], "loader")))
        self.assertEqual(values.decode(saved),
                         [torch.device("cpu"), torch.float16])
        with self.assertRaises(ValueError):
            values.decode({"torch_dtype": "torch.nn"})

    def test_parameters_are_saved_as_references_to_the_runs_own(self):
        # awd-lstm-lm validates with averaged weights: `tmp[prm] =
        # prm.data.clone()` before, `prm.data = tmp[prm].clone()` after,
        # with a save between. Saved as copies, the restored dict's keys
        # were other tensors: KeyError after the resume.
        import json
        import sys
        from detc_runtime import values
        model = torch.nn.Linear(3, 2)
        tmp = {p: p.data.clone() for p in model.parameters()}
        frame = sys._getframe()
        with values.Parameters(frame):
            saved = json.loads(json.dumps(values.encode(tmp, "tmp")))
        self.assertEqual([k["parameter"] for k, _ in saved["dict"]],
                         [["model", "weight"], ["model", "bias"]])
        model = torch.nn.Linear(3, 2)  # the resumed run's own
        with values.Parameters(sys._getframe()):
            restored = values.decode(saved)
        self.assertEqual(list(map(id, restored)),
                         list(map(id, model.parameters())))
        self.assertTrue(all(torch.equal(restored[p], v) for p, v in
                            zip(model.parameters(), tmp.values())))
        del model
        with self.assertRaisesRegex(values.UnsavableValue, "'model'"):
            with values.Parameters(sys._getframe()):
                values.decode(saved)

    def test_a_field_decoded_into_the_object_it_holds_is_kept(self):
        # timm's PrefetchLoader: its `loader` field's state is loaded into
        # the loader it holds, which decode returns; putting that object
        # into itself walked its references without end (RecursionError,
        # "the sidecar's value 'loader' is malformed", exit 2).
        from detc_runtime import values
        a, b = _WindowMeter(), _WindowMeter()
        a.peer, b.peer = b, a  # a cycle of the script's objects
        self.assertIs(values._into(a, a), a)
        self.assertIs(a.peer, b)

    def test_meters_in_a_defaultdict_and_generators_round_trip(self):
        # A JIT checkpoint of DeiT's metric logger (`meters =
        # defaultdict(SmoothedValue)`, each a deque window): a deque was
        # "cannot be saved", and the restored dict was a plain one (a new
        # meter then raised KeyError). A generator a variable holds is saved
        # by its state, into the restarted run's own.
        import collections
        import json
        from detc_runtime import values
        meters = collections.defaultdict(_WindowMeter)
        for v in (1.0, 2.0, 3.0, 4.0):
            meters["loss"].update(v)
        g = torch.Generator().manual_seed(5)
        torch.randn(3, generator=g)
        r = random.Random(3)
        r.random()
        tensors = []
        saved = json.loads(json.dumps(values.encode(
            {"meters": meters, "g": g, "r": r}, "state", tensors)))
        again = collections.defaultdict(_WindowMeter)
        g2, r2 = torch.Generator().manual_seed(1), random.Random(0)
        restored = values._into(
            again, values.decode(saved["dict"][0][1], None, tensors))
        self.assertIs(restored, again)
        self.assertEqual(list(again["loss"].deque), [2.0, 3.0, 4.0])
        self.assertEqual(again["loss"].deque.maxlen, 3)
        self.assertEqual((again["loss"].count, again["loss"].total), (4, 10.0))
        again["acc"].update(1.0)  # still a defaultdict
        g_saved = saved["dict"][1][1]
        self.assertIs(values.decode(g_saved, lambda: g2, tensors), g2)
        self.assertTrue(torch.equal(torch.randn(3, generator=g),
                                    torch.randn(3, generator=g2)))
        r_saved = saved["dict"][2][1]
        self.assertIs(values.decode(r_saved, lambda: r2, tensors), r2)
        self.assertEqual(r.random(), r2.random())
        with self.assertRaises(values.UnsavableValue):
            values.decode(g_saved, lambda: None, tensors)


    def test_output_only_objects_are_sinks_not_saved(self):
        # tensorboard_logger's Logger (RepDistiller's `logger`, given the
        # training's accuracies): its fields were encoded one by one until
        # a set among them made the sidecar "unsaved", and every resume
        # stopped. A sink is saved as its class name; the restore keeps the
        # one fast-forward built. A script's own class is not a sink.
        from detc_runtime import sinks, values

        class Logger:
            def __init__(self):
                self.tags = {"train_acc"}

        Logger.__module__ = "tensorboard_logger.tensorboard_logger"
        Logger.__qualname__ = "Logger"
        logger = Logger()
        self.assertEqual(values.encode(logger, "logger"), {
            "sink": "tensorboard_logger.tensorboard_logger.Logger"})
        kept = Logger()
        self.assertIs(values.decode({"sink": sinks.name_of(logger)},
                                    lambda: kept), kept)
        self.assertFalse(sinks.is_sink(_WindowMeter()))


class _SAM(torch.optim.Optimizer):
    """davda54/sam's shape: an optimizer of the script's classes wrapping a
    base optimizer that shares its param_groups; the inherited
    state_dict() holds neither the base optimizer's momentum, nor a
    counter of the subclass's own (`climbs`), nor tensors it keeps in a
    list (`slow`, as a Lookahead keeps its slow weights)."""

    def __init__(self, params, base, **kwargs):
        super().__init__(params, dict(rho=0.05, **kwargs))
        self.base_optimizer = base(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups
        self.climbs = 0
        self.slow = [p.detach().clone() for p in self.param_groups[0][
            "params"]]


class StateBeyondTest(unittest.TestCase):
    def test_an_optimizer_subclass_keeps_what_its_state_dict_leaves_out(self):
        # The inherited state_dict() left out the base optimizer's momentum:
        # a JIT restart (and a resume) continued without it, exit 0 with
        # other weights. Saved beside it now, restored into the restarted
        # run's objects, still sharing param_groups, and digested.
        import json
        from detc_runtime import fingerprint, values

        def made():
            torch.manual_seed(0)
            model = torch.nn.Linear(3, 2)
            return model, _SAM(model.parameters(), torch.optim.SGD, lr=0.1,
                               momentum=0.9)

        model, opt = made()
        model(torch.ones(1, 3)).sum().backward()
        opt.base_optimizer.step()
        opt.climbs = 4
        opt.slow[0].add_(1.0)
        tensors = []
        saved = json.loads(json.dumps(values.encode(opt, "opt", tensors)))
        digest = fingerprint.digest(opt)
        again_model, again = made()
        self.assertNotEqual(fingerprint.digest(again), digest)
        back = values.decode(saved, lambda: again, tensors)
        self.assertIs(back, again)
        self.assertEqual(again.climbs, 4)
        self.assertTrue(all(torch.equal(a, b)
                            for a, b in zip(again.slow, opt.slow)))
        buf = [again.base_optimizer.state[p]["momentum_buffer"]
               for p in again_model.parameters()]
        want = [opt.base_optimizer.state[p]["momentum_buffer"]
                for p in model.parameters()]
        self.assertTrue(all(torch.equal(a, b) for a, b in zip(buf, want)))
        self.assertIs(again.base_optimizer.param_groups, again.param_groups)
        self.assertEqual(fingerprint.digest(again), digest)
        # A library optimizer, a module, and a scheduler of the script's
        # (its library state_dict() holds its fields; its optimizer would
        # be saved twice): nothing beyond.
        self.assertEqual(values.state_beyond(opt.base_optimizer), [])
        self.assertEqual(values.state_beyond(model), [])

        class Warmup(torch.optim.lr_scheduler.LambdaLR):
            def __init__(self, optimizer, steps):
                self.steps = steps
                super().__init__(optimizer, lambda i: min(1, i / steps))

        self.assertEqual(values.state_beyond(Warmup(opt.base_optimizer, 4)),
                         [])
        # An object with no state_dict() at all (a module global such as
        # `__loader__`, which the replay's scan of a frame meets).
        self.assertEqual(values.state_beyond(_Meter()), [])


def _repeat(loader):
    while True:
        for batch in loader:
            yield batch


def _counting(loader):
    count = 0
    for batch in loader:
        count += 1
        yield batch


class GeneratorAtTest(unittest.TestCase):
    def test_a_generator_repeating_a_keyed_loader_is_saved_by_its_position(
            self):
        # rosinality's stylegan2: `loader = sample_data(loader)`, next() per
        # iteration. Saved as where its loader's iteration stands; a fresh
        # generator of the restarted setup continues there, across the
        # epoch's end. Another shape (state of its own) is refused.
        import json
        from torch.utils.data import DataLoader
        from detc_runtime import values

        def loader():
            torch.manual_seed(0)
            return rt.keyed_loader(91, DataLoader)(
                list(range(10)), batch_size=3, shuffle=True)

        gen = _repeat(loader())
        fresh = values.encode(gen, "loader")
        self.assertIsNone(fresh["loader_generator"]["position"])
        for _ in range(5):  # into the second epoch
            next(gen)
        tensors = []
        saved = json.loads(json.dumps(values.encode(gen, "loader", tensors)))
        want = [next(gen).tolist() for _ in range(4)]
        torch.manual_seed(99)  # the restarted run's generator is elsewhere
        again = _repeat(loader())
        back = values.decode(saved, lambda: again, tensors)
        self.assertIs(back, again)
        self.assertEqual([next(again).tolist() for _ in range(4)], want)
        with self.assertRaises(values.UnsavableValue) as caught:
            values.encode(_counting(loader()), "it")
        self.assertIn("only a generator that repeats one loader",
                      str(caught.exception))
        # The restarted setup started it already: refused.
        started = _repeat(loader())
        next(started)
        with self.assertRaises(values.UnsavableValue):
            values.decode(saved, lambda: started, tensors)


class JitTest(unittest.TestCase):
    def test_failure_writes_the_boundary_before_the_step(self):
        # A failure before the step writes the boundary's checkpoint (with
        # the gradients accumulated before it when the minibatch before did
        # not step); once the step began, nothing is written.
        import contextlib
        import os
        import io
        import tempfile
        from detc_runtime import hints, jit, sidecar

        model = torch.nn.Linear(2, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        values = {"model": lambda: model, "optimizer": lambda: opt}
        with tempfile.TemporaryDirectory() as tmp:
            hints.HINT.path = os.path.join(tmp, "jit.pt")
            saved_jit = jit.JIT
            jit.JIT = jit._Run()
            try:
                def boundary():  # as the emitted line does
                    jit.boundary(77, values)("detc-jit")

                step = jit.step(opt.step)

                def fail():
                    jit.JIT.written = False
                    err = io.StringIO()
                    with contextlib.redirect_stderr(err):
                        jit._on_failure("test")
                    return os.path.exists(hints.HINT.path), err.getvalue()

                boundary()
                step()
                boundary()                      # after a step: clean
                wrote, _ = fail()
                self.assertTrue(wrote)
                self.assertNotIn(jit.GRADS + "model",
                                 sidecar.load(hints.HINT.path)["values"])
                os.unlink(hints.HINT.path)
                # No step before: gradients may be accumulating; the
                # boundary keeps them, and the checkpoint holds them as
                # they were there, not as the failed backward left them.
                model(torch.ones(1, 2)).sum().backward()
                kept = [p.grad.clone() for p in model.parameters()]
                boundary()
                model(torch.ones(1, 2)).sum().backward()
                wrote, _ = fail()
                self.assertTrue(wrote)
                body = sidecar.load(hints.HINT.path)
                hints.HINT.tensors = torch.load(hints.HINT.path)
                saved = hints._decode(body["values"][jit.GRADS + "model"])
                self.assertEqual(len(saved), len(kept))
                for a, b in zip(saved, kept):
                    self.assertTrue(torch.equal(a, b))
                os.unlink(hints.HINT.path)
                step()
                boundary()
                jit.JIT.phase = jit.IN_STEP     # failing inside the step
                wrote, err = fail()
                self.assertFalse(wrote)
                self.assertIn("in the optimizer step", err)
            finally:
                jit.JIT = saved_jit
                hints.HINT.path = None


    def test_a_step_detc_did_not_see_is_not_taken_for_the_boundary(self):
        # An optimizer detc cannot read (a library's, an unresolved import)
        # steps without jit.step around it: a failure after that step wrote
        # the boundary's checkpoint with the updated parameters, and the
        # restart took the step twice (other weights, exit 0). The
        # parameters' version counters say they changed: no checkpoint.
        # Steps detc saw, and guard-step's undo, change them as expected.
        import contextlib
        import io
        import os
        import tempfile
        from detc_runtime import hints, jit

        model = torch.nn.Linear(2, 1)
        seen = torch.optim.SGD(model.parameters(), lr=0.1)
        unseen = torch.optim.SGD(model.parameters(), lr=0.1)
        values = {"model": lambda: model, "optimizer": lambda: seen}
        with tempfile.TemporaryDirectory() as tmp:
            hints.HINT.path = os.path.join(tmp, "jit.pt")
            saved_jit = jit.JIT
            try:
                def minibatch(steps, guard=False):
                    jit.JIT = jit._Run()
                    jit.JIT.guard_step = guard
                    jit.boundary(82, values)()
                    model(torch.ones(1, 2)).sum().backward()
                    for step in steps:
                        step()
                    err = io.StringIO()
                    with contextlib.redirect_stderr(err):
                        jit._on_failure("test")
                    wrote = os.path.exists(hints.HINT.path)
                    if wrote:
                        os.unlink(hints.HINT.path)
                    return wrote, err.getvalue()

                wrote, err = minibatch([unseen.step])
                self.assertFalse(wrote)
                self.assertIn("outside an optimizer step detc wraps", err)
                # Seen, then undone by guard-step: the boundary's again.
                wrote, err = minibatch([jit.step(seen.step)], guard=True)
                self.assertTrue(wrote, err)
                # Seen and undone, but an unseen one too.
                wrote, err = minibatch([jit.step(seen.step), unseen.step],
                                       guard=True)
                self.assertFalse(wrote)
                self.assertIn("outside an optimizer step detc wraps", err)
                wrote, err = minibatch([])
                self.assertTrue(wrote, err)
            finally:
                jit.JIT = saved_jit
                hints.HINT.path = None

    def test_buffer_registered_after_the_boundary_is_not_guessed(self):
        # The boundary reads a cached list of buffer slots; a buffer a
        # module registers after it (a lazy module materializing) was not
        # kept, so a failure writes no checkpoint rather than its live
        # value as the boundary's.
        import contextlib
        import io
        import os
        import tempfile
        from detc_runtime import hints, jit

        model = torch.nn.Sequential(torch.nn.Linear(2, 2),
                                    torch.nn.BatchNorm1d(2))
        values = {"model": lambda: model}
        with tempfile.TemporaryDirectory() as tmp:
            hints.HINT.path = os.path.join(tmp, "jit.pt")
            saved_jit = jit.JIT
            jit.JIT = jit._Run()
            try:
                jit.boundary(78, values)()
                model[0].register_buffer("late", torch.zeros(1))
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    jit._on_failure("test")
                self.assertFalse(os.path.exists(hints.HINT.path))
                self.assertIn("a buffer was registered since the boundary",
                              err.getvalue())
                # Kept buffers are the boundary's values, not the live ones.
                jit.JIT = jit._Run()
                jit.boundary(79, values)()
                before = model[1].running_mean.clone()
                model.train()(torch.randn(4, 2))
                self.assertFalse(torch.equal(model[1].running_mean, before))
                jit._on_failure("test")
                hints.HINT.tensors = torch.load(hints.HINT.path)
                from detc_runtime import sidecar
                body = sidecar.load(hints.HINT.path)
                fresh = torch.nn.Sequential(torch.nn.Linear(2, 2),
                                            torch.nn.BatchNorm1d(2))
                fresh[0].register_buffer("late", torch.zeros(1))
                hints._decode(body["values"]["model"], lambda: fresh)
                self.assertTrue(torch.equal(fresh[1].running_mean, before))
            finally:
                jit.JIT = saved_jit
                hints.HINT.path = None


class _Meter:
    """An ImageNet-style average meter (plain data)."""

    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, v):
        self.sum += v
        self.count += 1


class _Progress:
    """A progress printer over meters."""

    def __init__(self, meters):
        self.meters = meters


class HintCompareTest(unittest.TestCase):
    def test_restored_values_are_compared_as_the_checkpoint_holds_them(self):
        # A hint checkpoint's values are compared at the restart, each
        # restored value encoded again, with the saved one as the sidecar
        # and the tensor file hold it: the same state in other objects
        # (a module made again, a meter with another id) agrees; a weight,
        # a counter or a float that differs is named.
        import os
        import tempfile
        from detc_runtime import fingerprint, hints, sidecar

        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(3, 4),
                                    torch.nn.Dropout(0.2))
        model.eval()
        opt = torch.optim.Adam(model.parameters())
        model(torch.randn(2, 3)).sum().backward()
        opt.step()
        meter = _Meter()
        meter.update(1.5)
        live = {"model": model, "opt": opt, "meter": meter, "acc": 0.1 + 0.2}
        thunks = {k: (lambda k=k: live[k]) for k in live}
        saved_target, saved_tensors = hints.HINT.target, hints.HINT.tensors
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "hint.pt")
            hints.write(7, 1, thunks, path=path)
            try:
                hints.HINT.target = body = sidecar.load(path)
                hints.HINT.tensors = torch.load(path)
                self.assertEqual(body["fingerprint"]["state_from"],
                                 "checkpoint")
                self.assertNotIn("state", body["fingerprint"])

                def differing():
                    saved = hints._saved_digests(False)
                    now = {k: fingerprint.digest(hints._restored_form(
                        k, thunks[k])) for k in saved}
                    return sorted(k for k in saved if saved[k] != now[k])

                self.assertEqual(differing(), [])
                # The restart's objects: made again, state loaded.
                again = torch.nn.Sequential(torch.nn.Linear(3, 4),
                                            torch.nn.Dropout(0.2))
                again.load_state_dict(model.state_dict())
                again.eval()
                other = _Meter()
                other.update(1.5)
                live.update(model=again, meter=other)
                self.assertEqual(differing(), [])
                again.train()  # the modes are part of a module's state
                self.assertEqual(differing(), ["model"])
                again.eval()
                with torch.no_grad():
                    again[0].weight[1, 2] += 1
                other.count = 2
                live["acc"] = 0.3
                self.assertEqual(differing(), ["acc", "meter", "model"])
            finally:
                hints.HINT.target = saved_target
                hints.HINT.tensors = saved_tensors


class JitObjectsTest(unittest.TestCase):
    def test_plain_user_objects_are_kept_as_at_the_boundary(self):
        # A meter the minibatch updates before its step is copied at the
        # boundary: the failure's checkpoint holds its value from then, so
        # a restart does not count the failed minibatch twice. An object
        # holding a module too (minGPT's Trainer) is kept field by field:
        # its counters copied, its module's buffers kept, its parameters
        # read at the failure (unchanged before the step), so it is saved
        # as of the boundary as well (it was refused: "unsaved").
        import contextlib
        import io
        import os
        import tempfile
        from detc_runtime import hints, jit, sidecar
        from detc_runtime.values import plain as _values_plain

        meter = _Meter()
        meter.update(1.0)
        holder = _Meter()
        holder.update(2.0)
        holder.model = torch.nn.Linear(2, 1)
        weight = holder.model.weight.detach().clone()
        values = {"meter": lambda: meter, "holder": lambda: holder}
        self.assertTrue(_values_plain(meter))
        self.assertFalse(_values_plain(holder))
        with tempfile.TemporaryDirectory() as tmp:
            hints.HINT.path = os.path.join(tmp, "jit.pt")
            saved_jit = jit.JIT
            jit.JIT = jit._Run()
            try:
                jit.boundary(80, values)("detc-jit")
                self.assertIsNot(jit.JIT.snapshot["meter"], meter)
                self.assertIs(jit.JIT.snapshot["holder"].obj, holder)
                meter.update(5.0)  # the failing minibatch, before its step
                holder.update(5.0)
                with contextlib.redirect_stderr(io.StringIO()):
                    jit._on_failure("test")
                hints.HINT.tensors = torch.load(hints.HINT.path)
                body = sidecar.load(hints.HINT.path)
                # A restart puts it back into the script's own object.
                kept = hints._decode(body["values"]["meter"], lambda: meter)
                self.assertIs(kept, meter)
                self.assertEqual((meter.sum, meter.count), (1.0, 1))
                # The object holding a module: its fields as at the
                # boundary, put back into the restarted run's object.
                self.assertNotIn("unsaved", body["values"]["holder"])
                again = _Meter()
                again.model = torch.nn.Linear(2, 1)
                back = hints._decode(body["values"]["holder"], lambda: again)
                self.assertIs(back, again)
                self.assertEqual((again.sum, again.count), (2.0, 1))
                self.assertTrue(torch.equal(again.model.weight, weight))
            finally:
                jit.JIT = saved_jit
                hints.HINT.path = None

    def test_objects_saved_under_two_names_come_back_as_one(self):
        # A restart that skips the setup building a meter and the progress
        # printer holding it (both unbound) gets one meter back, the
        # printer's, with the boundary's sums.
        import contextlib
        import io
        import os
        import tempfile
        from detc_runtime import hints, jit, sidecar

        meter = _Meter()
        meter.update(2.0)
        progress = _Progress([meter])
        values = {"meter": lambda: meter, "progress": lambda: progress}
        with tempfile.TemporaryDirectory() as tmp:
            hints.HINT.path = os.path.join(tmp, "jit.pt")
            saved_jit = jit.JIT
            jit.JIT = jit._Run()
            try:
                jit.boundary(81, values)("detc-jit")
                meter.update(3.0)
                with contextlib.redirect_stderr(io.StringIO()):
                    jit._on_failure("test")
                hints.HINT.tensors = torch.load(hints.HINT.path)
                body = sidecar.load(hints.HINT.path)
                m = hints._decode(body["values"]["meter"], lambda: None)
                p = hints._decode(body["values"]["progress"], lambda: None)
                self.assertIs(p.meters[0], m)
                self.assertEqual((m.sum, m.count), (2.0, 1))
            finally:
                jit.JIT = saved_jit
                hints.HINT.path = None


class CommitTest(unittest.TestCase):
    """The checkpoint commit (docs/replay.md): the pair is visible when the
    save returns, the tail (fsyncs, the sidecar's rename, the temporary
    directory's removal) runs on the durability thread, and a leftover
    `.tmp` sidecar is settled before the next commit's renames."""

    def setUp(self):
        import tempfile
        self.dir = tempfile.mkdtemp()
        self.path = os.path.join(self.dir, "ckpt.pt")

    def tearDown(self):
        import shutil
        from detc_runtime import holders
        holders.release()
        shutil.rmtree(self.dir)

    def holders_here(self):
        return sorted(d for d in os.listdir(self.dir)
                      if d.startswith(".detc-"))

    def save(self, value):
        from detc_runtime import sidecar
        return sidecar.save_with_sidecar(
            self.path, lambda tmp: torch.save({"v": value}, tmp),
            lambda: {"script_sha256": "0" * 64, "site": 1, "instance": value,
                     "seeds": {"override": None, "generators": {}},
                     "loaders": {}, "values": {}})

    def test_sidecar_follows_a_checkpoint_the_script_moves_or_copies(self):
        # timm's CheckpointSaver: saved as tmp, renamed to last, linked or
        # copied to per-epoch and best names (moved.py).
        import shutil
        from detc_runtime import sidecar
        self.save(1)
        last = os.path.join(self.dir, "last.pt")
        os.replace(self.path, last)
        self.assertFalse(os.path.exists(sidecar.sidecar_path(self.path)))
        self.assertEqual(sidecar.load(last)["instance"], 1)
        os.link(last, os.path.join(self.dir, "epoch1.pt"))
        shutil.copyfile(last, os.path.join(self.dir, "best.pt"))
        sub = os.path.join(self.dir, "sub")
        os.mkdir(sub)
        shutil.copy2(last, sub)  # into a folder
        shutil.move(os.path.join(self.dir, "best.pt"),
                    os.path.join(self.dir, "best2.pt"))
        for name in ("last.pt", "epoch1.pt", "sub/last.pt", "best2.pt"):
            self.assertEqual(sidecar.load(os.path.join(
                self.dir, name))["instance"], 1, name)
        self.assertFalse(os.path.exists(os.path.join(
            self.dir, "best.pt" + sidecar.SUFFIX)))
        # Relative to a folder descriptor: moved as it is, the sidecar
        # left where it was (a path detc cannot place one beside).
        fd = os.open(self.dir, os.O_RDONLY)
        try:
            os.link("epoch1.pt", "epoch1b.pt", src_dir_fd=fd, dst_dir_fd=fd)
        finally:
            os.close(fd)
        self.assertTrue(os.path.exists(os.path.join(self.dir, "epoch1b.pt")))
        self.assertFalse(os.path.exists(os.path.join(
            self.dir, "epoch1b.pt" + sidecar.SUFFIX)))
        # Files detc did not commit are moved as they were, alone.
        other = os.path.join(self.dir, "notes.txt")
        with open(other, "w") as f:
            f.write("x")
        os.replace(other, other + ".old")
        self.assertEqual(sorted(n for n in os.listdir(self.dir)
                                if n.startswith("notes")), ["notes.txt.old"])
        # The next save under the temporary name gets its own sidecar.
        self.save(2)
        self.assertEqual(sidecar.load(self.path)["instance"], 2)
        self.assertEqual(sidecar.load(last)["instance"], 1)
        # A symlink planted where the new name's sidecar goes is replaced,
        # not written through.
        victim = os.path.join(self.dir, "victim.txt")
        with open(victim, "w") as f:
            f.write("keep")
        planted = os.path.join(self.dir, "planted.pt")
        os.symlink(victim, sidecar.sidecar_path(planted) + ".tmp")
        shutil.copyfile(last, planted)
        with open(victim) as f:
            self.assertEqual(f.read(), "keep")
        self.assertEqual(sidecar.load(planted)["instance"], 1)
        self.assertFalse(os.path.islink(sidecar.sidecar_path(planted)))
        # Killed right after the file moved over `last`, before its sidecar
        # did: the new file loads (its sidecar waits as .tmp), never the
        # previous sidecar beside the new file alone.
        from detc_runtime import moved
        moved._prepare(os.path.realpath(self.path), os.path.realpath(last))
        self.assertEqual(sidecar.load(last)["instance"], 1)  # not moved yet
        moved.unwrapped(os.replace)(self.path, last)
        self.assertEqual(sidecar.load(last)["instance"], 2)

    def test_a_copy_made_on_the_durability_thread_does_not_wait_for_it(self):
        # fault_inject.py --snapshot copies each checkpoint when its
        # sidecar is renamed, on the durability thread: the copy waited
        # for the thread's own job (every hint restart test hung).
        import shutil
        import threading
        from detc_runtime import sidecar
        self.save(1)
        sidecar.DURABILITY.wait()
        self.assertFalse(sidecar.DURABILITY.on_its_thread())
        snapshot = os.path.join(self.dir, "snap.pt")
        replace = os.replace

        def hooked(src, dst, *args, **kwargs):
            replace(src, dst, *args, **kwargs)
            if os.fsdecode(dst).endswith(sidecar.SUFFIX):
                shutil.copy(self.path, snapshot)

        os.replace = hooked
        try:
            saver = threading.Thread(target=lambda: (
                self.save(2), sidecar.DURABILITY.wait()), daemon=True)
            saver.start()
            saver.join(20)
        finally:
            os.replace = replace
        self.assertFalse(saver.is_alive(), "the commit's tail hung")
        self.assertTrue(os.path.exists(snapshot))

    def test_tie_is_xxh3_and_earlier_sha256_sidecars_still_load(self):
        import hashlib
        from detc_runtime import sidecar
        self.save(1)
        sidecar.DURABILITY.wait()
        side = sidecar.sidecar_path(self.path)
        with open(side, "rb") as f:
            body = sidecar.decode(f.read(), side)
        with open(self.path, "rb") as f:
            data = f.read()
        self.assertEqual(body["checkpoint"]["size"], len(data))
        self.assertEqual(len(body["checkpoint"]["xxh3"]), 32)
        self.assertNotIn("sha256", body["checkpoint"])
        self.assertEqual(sidecar.load(self.path)["instance"], 1)
        # A sidecar an earlier detc wrote names the checkpoint by SHA-256.
        old = dict(body, checkpoint={"size": len(data), "sha256":
                                     hashlib.sha256(data).hexdigest()})
        with open(side, "wb") as f:
            f.write(sidecar.encode(old))
        self.assertEqual(sidecar.load(self.path)["instance"], 1)
        # One byte changed: neither tie matches.
        with open(self.path, "r+b") as f:
            f.seek(len(data) // 2)
            f.write(bytes([data[len(data) // 2] ^ 1]))
        with self.assertRaisesRegex(sidecar.SidecarError, "another "
                                    "checkpoint"):
            sidecar.load(self.path)
        with open(side, "wb") as f:
            f.write(sidecar.encode(body))
        with self.assertRaisesRegex(sidecar.SidecarError, "another "
                                    "checkpoint"):
            sidecar.load(self.path)

    def test_pair_visible_at_return_and_completed_by_the_tail(self):
        from detc_runtime import sidecar
        side = sidecar.sidecar_path(self.path)
        self.save(1)
        self.save(2)  # waits for the first commit's tail
        # Visible now: the checkpoint and a sidecar that matches it (at
        # .tmp until the tail renames it).
        self.assertEqual(torch.load(self.path)["v"], 2)
        self.assertEqual(sidecar.load(self.path)["instance"], 2)
        sidecar.DURABILITY.wait()
        self.assertFalse(os.path.exists(side + ".tmp"))
        with open(side, "rb") as f:
            self.assertEqual(sidecar.decode(f.read(), side)["instance"], 2)
        # The tail left the next commit's empty files in its directory;
        # the process removes them when it ends.
        from detc_runtime import holders
        (holder,) = self.holders_here()
        held = os.path.join(self.dir, holder)
        self.assertEqual(sorted(os.listdir(held)),
                         [holders.PENDING, "ckpt.pt"])
        self.assertTrue(all(os.path.getsize(os.path.join(held, f)) == 0
                            for f in os.listdir(held)))
        holders.release()
        self.assertEqual(sorted(os.listdir(self.dir)),
                         ["ckpt.pt", "ckpt.pt.detc.json"])

    def test_next_commit_writes_into_the_prepared_files(self):
        # No directory or inode is made on the training thread after the
        # first commit: the checkpoint is the inode the tail created.
        from detc_runtime import holders, sidecar
        self.save(1)
        sidecar.DURABILITY.wait()
        (holder,) = self.holders_here()
        prepared = os.stat(os.path.join(self.dir, holder, "ckpt.pt")).st_ino
        made = []
        real_mkdtemp = holders.tempfile.mkdtemp
        holders.tempfile.mkdtemp = lambda **kw: made.append(kw) or \
            real_mkdtemp(**kw)
        try:
            self.save(2)
        finally:
            holders.tempfile.mkdtemp = real_mkdtemp
        self.assertEqual(made, [])
        self.assertEqual(os.stat(self.path).st_ino, prepared)
        self.assertEqual(sidecar.load(self.path)["instance"], 2)
        # Another name in the same directory takes the same holder.
        other = os.path.join(self.dir, "best.pt")
        sidecar.DURABILITY.wait()
        sidecar.save_with_sidecar(
            other, lambda tmp: torch.save({"v": 3}, tmp),
            lambda: {"script_sha256": "0" * 64, "site": 2, "instance": 1,
                     "seeds": {"override": None, "generators": {}},
                     "loaders": {}, "values": {}})
        self.assertEqual(torch.load(other)["v"], 3)
        self.assertEqual(sidecar.load(other)["instance"], 1)
        sidecar.DURABILITY.wait()
        self.assertEqual(self.holders_here(), [holder])

    def test_prepared_holder_removed_by_hand_is_replaced(self):
        import shutil
        from detc_runtime import sidecar
        self.save(1)
        sidecar.DURABILITY.wait()
        for holder in self.holders_here():
            shutil.rmtree(os.path.join(self.dir, holder))
        self.save(2)
        self.assertEqual(sidecar.load(self.path)["instance"], 2)
        self.assertEqual(torch.load(self.path)["v"], 2)

    def test_tied_body_runs_while_the_file_is_hashed(self):
        # A commit's body (the fingerprint, detc's values) is built while
        # the core's worker hashes the checkpoint: the same hash as the
        # caller's thread gives, the body's result, and a file that cannot
        # be read is the OSError reading it would raise, naming it.
        from detc_runtime import sidecar
        data = os.urandom((1 << 20) + 13)
        with open(self.path, "wb") as f:
            f.write(data)
        for private in (False, True):
            made, digest = sidecar.tied_body(self.path, lambda: {"a": 1},
                                             private)
            self.assertEqual(made, {"a": 1})
            self.assertEqual(digest, sidecar.file_digest(self.path))
        absent = self.path + ".absent"
        with self.assertRaises(FileNotFoundError) as caught:
            sidecar.tied_body(absent, dict)
        self.assertEqual(caught.exception.filename, absent)

    def test_mapped_and_read_hashes_agree(self):
        # A commit hashes its own temporary file through a mapping (files
        # of 1 MiB and more); loading reads with read(). Same bytes, same
        # hash, at every size around the switch and the 1 MiB block.
        from detc_runtime import _core
        data = os.urandom(3 << 20)
        for size in (0, 5, (1 << 20) - 1, 1 << 20, (1 << 20) + 7, 3 << 20):
            with open(self.path, "wb") as f:
                f.write(data[:size])
            self.assertEqual(_core.file_xxh3(self.path, True),
                             _core.file_xxh3(self.path, False))
            self.assertEqual(_core.file_xxh3(self.path, True)[0], size)

    def test_a_run_that_ends_leaves_no_holder(self):
        # The prepared holder goes at exit; a killed run's stays (its
        # lock died with it) until a later commit sweeps it.
        import subprocess
        import sys
        code = ("import sys, torch\n"
                "from detc_runtime import sidecar\n"
                "for v in (1, 2):\n"
                "    sidecar.save_with_sidecar(sys.argv[1],\n"
                "        lambda tmp: torch.save({'v': v}, tmp),\n"
                "        lambda: {'script_sha256': '0' * 64, 'site': 1,\n"
                "                 'instance': v, 'seeds': {}, 'loaders': {},\n"
                "                 'values': {}})\n"
                "sidecar.DURABILITY.wait()\n"
                "if sys.argv[2] == 'kill':\n"
                "    import os, signal\n"
                "    os.kill(os.getpid(), signal.SIGKILL)\n")
        for how in ("exit", "kill"):
            r = subprocess.run([sys.executable, "-c", code, self.path, how],
                               capture_output=True, text=True, timeout=120)
            if how == "exit":
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(sorted(os.listdir(self.dir)),
                                 ["ckpt.pt", "ckpt.pt.detc.json"])
            else:
                self.assertEqual(len(self.holders_here()), 1)
        (held,) = self.holders_here()
        os.utime(os.path.join(self.dir, held), (0, 0))
        from detc_runtime import holders
        holders.PREPARED.swept.clear()
        self.save(3)
        self.assertNotIn(held, self.holders_here())

    def test_holders_of_dead_runs_are_swept_live_ones_kept(self):
        # A run killed between commits leaves its holder; the next run's
        # first commit there removes it once it is a minute old and no
        # process holds its lock. A live run's holder (locked) stays,
        # however old.
        from detc_runtime import holders
        dead = holders.new_holder(self.dir)
        open(os.path.join(dead.path, "ckpt.pt"), "wb").close()
        os.close(dead.fd)  # what the kernel does when its process dies
        holders.OPEN_HERE.discard(dead.fd)
        live = holders.new_holder(self.dir)
        os.utime(dead.path, (0, 0))
        os.utime(live.path, (0, 0))
        holders.PREPARED.swept.clear()
        self.save(1)
        self.assertFalse(os.path.exists(dead.path))
        self.assertTrue(os.path.exists(live.path))
        live.remove()

    def test_leftover_sidecar_is_settled_before_the_renames(self):
        # A run killed after its renames, before its tail: the checkpoint
        # is new, its sidecar at .tmp, the old sidecar in place. The
        # resumed run's first commit is then killed between its own two
        # renames (its sidecar at .tmp, the checkpoint still the first
        # run's). The checkpoint must still have a matching sidecar.
        from detc_runtime import sidecar
        side = sidecar.sidecar_path(self.path)
        self.save(1)
        sidecar.DURABILITY.wait()
        with open(side, "rb") as f:
            old = f.read()
        self.save(2)
        sidecar.DURABILITY.wait()
        os.replace(side, side + ".tmp")  # the tail never ran
        with open(side, "wb") as f:
            f.write(old)
        self.assertEqual(sidecar.load(self.path)["instance"], 2)
        real_replace = os.replace
        calls = []

        def replace(src, dst):
            calls.append(dst)
            if dst == self.path:  # the second rename of the next commit
                raise KeyboardInterrupt("killed")
            real_replace(src, dst)

        os.replace = replace
        try:
            with self.assertRaises(KeyboardInterrupt):
                self.save(3)
        finally:
            os.replace = real_replace
        self.assertEqual(calls, [side, side + ".tmp", self.path])
        # The failed commit leaves no temporary directory (nor the link to
        # the checkpoint it was replacing).
        self.assertEqual([d for d in os.listdir(self.dir)
                          if d.startswith(".detc-")], [])
        self.assertEqual(torch.load(self.path)["v"], 2)
        self.assertEqual(sidecar.load(self.path)["instance"], 2)
        # A .tmp sidecar that matches nothing is removed by the next one,
        # and so are the empty temporary directories of commits whose
        # tail never ran (older than a minute; a fresh one may be a live
        # run's).
        # A stale one may keep the checkpoint its commit was replacing.
        stale = os.path.join(self.dir, ".detc-stale.tmp")
        fresh = os.path.join(self.dir, ".detc-fresh.tmp")
        for d in (stale, fresh):
            os.mkdir(d)
        # (as detc links it: no copy of the checkpoint a sidecar follows)
        from detc_runtime import moved
        moved.unwrapped(os.link)(self.path,
                                 os.path.join(stale, sidecar.PREVIOUS))
        os.utime(stale, (0, 0))
        self.save(4)
        sidecar.DURABILITY.wait()
        self.assertEqual(sidecar.load(self.path)["instance"], 4)
        self.assertFalse(os.path.exists(stale))
        self.assertTrue(os.path.exists(fresh))
        os.rmdir(fresh)

    def test_replaced_checkpoint_is_released_by_the_tail(self):
        # The rename over the old checkpoint does not free its blocks on
        # the training thread: a hard link in the commit's temporary
        # directory keeps it until the durability thread's tail.
        from detc_runtime import sidecar
        self.save(1)
        sidecar.DURABILITY.wait()
        old_inode = os.stat(self.path).st_ino
        seen = []
        real_finish = sidecar._finish

        def finish(real, side, holder, *rest):
            kept = os.path.join(holder.path, sidecar.PREVIOUS)
            seen.append(os.path.exists(kept) and
                        os.stat(kept).st_ino == old_inode)
            real_finish(real, side, holder, *rest)
            seen.append(os.path.exists(kept))

        sidecar._finish = finish
        try:
            self.save(2)
            sidecar.DURABILITY.wait()
        finally:
            sidecar._finish = real_finish
        self.assertEqual(seen, [True, False])
        self.assertNotEqual(os.stat(self.path).st_ino, old_inode)
        from detc_runtime import holders
        holders.release()
        self.assertEqual(sorted(os.listdir(self.dir)),
                         ["ckpt.pt", "ckpt.pt.detc.json"])
        self.assertEqual(sidecar.load(self.path)["instance"], 2)

    def test_forked_child_does_not_keep_a_directory_lock(self):
        # A DataLoader worker forked while the durability thread holds the
        # lock must not share it: were this process killed, the orphan
        # would hold it and the resumed run's commit would wait forever.
        # Nor the lock on a holder (the holder of a killed run would look
        # alive while the orphan lives).
        from detc_runtime import holders, sidecar
        held = holders.new_holder(self.dir)
        lock = sidecar._DirectoryLock(self.path)
        with lock:
            pid = os.fork()
            if pid == 0:
                for fd in (lock.fd, held.fd):
                    try:
                        os.fstat(fd)
                        os._exit(1)  # still open in the child
                    except OSError:
                        pass
                os._exit(0)
            _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        held.remove()

    def test_synchronous_mode_does_everything_in_the_save(self):
        from detc_runtime import sidecar
        sidecar.DURABILITY.synchronous = True
        try:
            self.save(5)
            self.assertIsNone(sidecar.DURABILITY.job)
            self.assertEqual(sorted(os.listdir(self.dir)),
                             ["ckpt.pt", "ckpt.pt.detc.json"])
        finally:
            sidecar.DURABILITY.synchronous = False


class InvariantCheckTest(unittest.TestCase):
    def test_preconditions_are_conjunctions_or_disjunctions(self):
        # As lib/invariants writes them: a list of clauses, or a list of
        # such lists (disjunctive splitting); empty: always.
        from detc_runtime.invariant_check import Checker
        a = {"attr": "calls", "value": "forward:a"}
        b = {"attr": "calls", "value": "forward:b"}
        sat = Checker._satisfies
        self.assertTrue(sat(set(), []))
        self.assertTrue(sat({"calls=forward:a"}, [a]))
        self.assertFalse(sat({"calls=forward:a"}, [a, b]))
        self.assertTrue(sat({"calls=forward:b"}, [[a], [b]]))
        self.assertFalse(sat({"calls=forward:c"}, [[a], [b]]))
        # CONSISTENT / UNEQUAL clauses on a pair of records (Consistent).
        step = {"attr": "step", "kind": "CONSISTENT"}
        rank = {"attr": "rank", "kind": "UNEQUAL"}
        self.assertTrue(sat({"CONSISTENT(step)", "UNEQUAL(rank)"},
                            [step, rank]))
        self.assertFalse(sat({"UNEQUAL(step)", "UNEQUAL(rank)"}, [step]))

    def test_finiteness_and_hash_read_from_memory(self):
        # A contiguous CPU tensor is read directly (TensorMemory.h); any
        # other goes through torch. Both must agree with torch's isfinite.
        from detc_runtime import trace
        cases = []
        for dtype in (torch.float32, torch.float64, torch.float16,
                      torch.bfloat16):
            t = torch.randn(5, 7).to(dtype)
            cases += [t, t.t(), t[:, 2:]]
            for bad in (float("nan"), float("inf"), float("-inf")):
                u = t.clone()
                u[4, 6] = bad
                cases += [u, u.t(), u[1:]]
        cases += [torch.randn(3, requires_grad=True) * 2, torch.empty(0),
                  torch.tensor(float("nan"))]
        for t in cases:
            with self.subTest(dtype=t.dtype, shape=tuple(t.shape),
                              contiguous=t.is_contiguous()):
                self.assertEqual(trace._memory_finite(t),
                                 bool(torch.isfinite(t).all()))
                # The range (APIOutput bounds) agrees with torch's aminmax,
                # and is None when an element is not finite or none is.
                finite, lo, hi = trace._memory_range(t)
                self.assertEqual(finite, bool(torch.isfinite(t).all()))
                if finite and t.numel():
                    self.assertEqual((lo, hi), (float(t.min()),
                                                float(t.max())))
                else:
                    self.assertEqual((lo, hi), (None, None))
        self.assertIsNone(trace._memory_finite(torch.arange(3)))
        self.assertIsNone(trace._memory_range(torch.arange(3)))
        # A result's summary in a trace carries the range.
        s = trace.summary(torch.tensor([[-2.5, 0.25], [1.0, 3.0]]),
                          result=True)
        self.assertEqual((s["finite"], s["min"], s["max"]),
                         (True, -2.5, 3.0))
        self.assertNotIn("min", trace.summary(torch.tensor([1.0, 2.0])))
        self.assertIsNone(trace._memory_finite("not a tensor"))
        a = torch.randn(32, 64)
        self.assertEqual(trace._memory_hash(a), trace._memory_hash(a.clone()))
        b = a.clone()
        b[31, 63] += 1
        self.assertNotEqual(trace._memory_hash(a), trace._memory_hash(b))
        self.assertEqual(trace._memory_hash(a.t()),
                         trace._memory_hash(a.t().contiguous()))

    def test_remembered_verdicts_still_report_every_violation(self):
        # Passing (api, training, grad_enabled), call orders and parameter
        # flags are remembered; a violating one is evaluated (and
        # reported) every time, as detc check counts them.
        import json
        import tempfile
        from detc_runtime.invariant_check import Checker
        invs = [{"relation": "APIAttr", "a": "f", "attr": "training",
                 "value": "true"},
                {"relation": "APISequence", "a": "zero", "b": "step"},
                {"relation": "ParamAttr", "attr": "requires_grad",
                 "value": "true"}]
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump({"format": "detc-invariants", "version": 1,
                       "invariants": [dict(i, text=i["relation"],
                                           precondition=[], passing=1)
                                      for i in invs]}, f)
            f.flush()
            checker = Checker(f.name, None, 0)
        reports = []
        checker._report = lambda inv, where, detail, **facts: \
            reports.append(detail)
        for training in (True, False, True, False, False):
            checker.call_attrs("f", training, True)
        self.assertEqual(len(reports), 3)
        self.assertIn(("f", True, True), checker.attrs_pass)
        del reports[:]
        for order in (["zero", "step"], ["step"], ["zero", "step"],
                      ["step"]):
            checker.step_begins({"epoch": 0, "step": 0})
            checker.order = list(order)
        checker._end_step()
        self.assertEqual(reports, ["the step calls step but never zero"] * 2)
        self.assertEqual(checker.orders_pass, {("zero", "step")})
        del reports[:]
        for requires_grad in (True, False, True, False):
            checker.param("w", None, True, lambda: True, requires_grad, True)
        self.assertEqual(reports, ["parameter w has requires_grad = false"]
                         * 2)

    def test_param_update_by_version_counter_then_hash(self):
        # Checking ParamUpdate alone: an in-place write (a torch optimizer's
        # update) is a change without hashing; an untouched parameter, or
        # one updated through .data (no version bump), is judged by hash.
        from detc_runtime import trace
        hashed = []
        real = trace.tensor_hash
        trace.tensor_hash = lambda t: hashed.append(1) or real(t)
        saved = (trace.TRACE.last_data, trace.TRACE.last_version)
        trace.TRACE.last_data, trace.TRACE.last_version = {}, {}
        try:
            lin = torch.nn.Linear(3, 2)
            opt = torch.optim.SGD(lin.parameters(), lr=0.1)
            w, b = lin.weight, lin.bias
            self.assertIsNone(trace._changed(w, "w", None))  # first step
            self.assertIsNone(trace._changed(b, "b", None))
            lin(torch.ones(1, 3)).sum().backward()
            del hashed[:]
            opt.step()
            self.assertTrue(trace._changed(w, "w", None))
            self.assertTrue(trace._changed(b, "b", None))
            self.assertEqual(hashed, [])  # the counter said so
            # An update through .data: the counter does not move, so b is
            # hashed; its last hash was dropped at the counted change, so
            # this step is not known, the next one is.
            b.data.add_(1.0)
            self.assertIsNone(trace._changed(b, "b", None))
            b.data.add_(1.0)
            self.assertTrue(trace._changed(b, "b", None))
            self.assertFalse(trace._changed(b, "b", None))  # untouched
            self.assertIsNone(trace._changed(w, "w", None))
            w.data.mul_(2.0)
            self.assertTrue(trace._changed(w, "w", None))  # by hash
            self.assertFalse(trace._changed(w, "w", None))
        finally:
            trace.tensor_hash = real
            trace.TRACE.last_data, trace.TRACE.last_version = saved


class ContextRecordsTest(unittest.TestCase):
    """A batch's fetch and the script's own functions are traced as context
    records (`"context": true`): the fetch's result summarises the batch's
    parts; a forward inside such a function is still a top-level call (the
    verifier, which skips context records, sees it at depth 0); every call
    record says whether autocast is on."""

    def test_context_records(self):
        import json
        import subprocess
        import sys
        import tempfile
        from detc_runtime.invariant_check import Checker
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(os.path.dirname(os.path.abspath(
                __file__)), "Inputs", "context_trace.py")
            r = subprocess.run([sys.executable, script, tmp],
                               capture_output=True, text=True, timeout=120)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(tmp, "trace.rank0.jsonl")) as f:
                records = [json.loads(line) for line in f]
            inv = os.path.join(tmp, "inv.json")
            with open(inv, "w") as f:
                json.dump({"format": "detc-invariants", "version": 1,
                           "invariants": []}, f)
            checker = Checker(inv, None, 0)
        fetches = [x for x in records if x.get("api") == "dataloader.next"]
        # Three batches fetched, and the fetch that ends the loop.
        self.assertEqual(len(fetches), 8)
        self.assertTrue(all(x["context"] and x["call"] == "fetch"
                            for x in fetches))
        done = [x for x in fetches if x["kind"] == "exit" and "result" in x]
        self.assertEqual(len(done), 3)
        self.assertEqual([i["shape"] for i in done[0]["result"]["items"]],
                         [[3, 4], [3, 2]])
        self.assertEqual(fetches[-1].get("error"), "StopIteration")
        calls = [x for x in records if x.get("api") == "call:train_step"]
        self.assertEqual(len(calls), 6)
        self.assertTrue(all(x["context"] for x in calls))
        forwards = [x for x in records if x.get("api") == "forward:model"
                    and x["kind"] == "enter"]
        self.assertEqual([x["autocast"] for x in forwards],
                         [False, True, False])
        self.assertNotIn("context", forwards[0])
        # The verifier's walk: the forward is a top-level call of each step.
        orders = []
        for rec in records:
            if rec.get("kind") == "step" and checker.in_step:
                orders.append(list(checker.order))
            checker.observe(rec)
        orders.append(list(checker.order))
        self.assertEqual(orders, [["optimizer.zero_grad", "forward:model",
                                   "backward", "optimizer.step"]] * 3)


class DirectCheckTest(unittest.TestCase):
    """Checking without a trace file: each traced call hands the checker
    what its invariants read, on the training thread, with no record
    (trace._top_checked). One run per injected fault; each must report
    its violation at the step it happens, and a correct run nothing."""

    INVARIANTS = [
        {"relation": "APISequence", "a": "optimizer.zero_grad",
         "b": "backward"},
        {"relation": "APIOutput", "a": "forward:model"},
        {"relation": "APIArg", "a": "forward:model"},
        {"relation": "APIArg", "a": "forward:model", "attr": "dtype"},
        {"relation": "ParamAttr", "attr": "requires_grad", "value": "true"},
        {"relation": "ParamUpdate"},
        {"relation": "EpochConstant"},
        {"relation": "APIAttr", "a": "forward:model",
         "attr": "grad_enabled", "value": "true"},
    ]

    FAULTS = ("none", "float64", "nan", "inf", "same_batch", "frozen", "lr",
              "no_zero_grad")

    @staticmethod
    def run_faults(invariants, faults):
        """{fault: its run's stderr lines}, each fault run in a child of one
        checked_train.py process (Inputs/checked_train.py)."""
        import json
        import subprocess
        import sys
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "invariants.json")
            with open(path, "w") as f:
                json.dump({"format": "detc-invariants", "version": 1,
                           "invariants": invariants}, f)
            script = os.path.join(os.path.dirname(os.path.abspath(
                __file__)), "Inputs", "checked_train.py")
            r = subprocess.run([sys.executable, script, path] + list(faults),
                               capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        runs, lines = {}, []
        for line in r.stderr.splitlines():
            if line.startswith("== "):
                fault, _, code = line[3:].split()
                assert code == "0", "%s exited with %s:\n%s" % (
                    fault, code, "\n".join(lines))
                runs[fault], lines = lines, []
            else:
                lines.append(line)
        assert sorted(runs) == sorted(faults), r.stderr
        return runs

    @classmethod
    def setUpClass(cls):
        cls.runs = cls.run_faults([dict(inv, text=inv["relation"],
                                        precondition=[], passing=1)
                                   for inv in cls.INVARIANTS], cls.FAULTS)

    def run_with(self, fault):
        return [line for line in self.runs[fault]
                if line.startswith("detc-check: violation")]

    def test_correct_run_reports_nothing(self):
        self.assertEqual(self.run_with("none"), [])

    def test_a_violation_comes_with_its_excerpt(self):
        # Without a trace file, the excerpt is what the check saw: the
        # call's API, flags, step — here a NaN result at step 2.
        import json
        lines = self.run_faults([{
            "relation": "APIOutput", "a": "forward:model",
            "text": "APIOutput(forward:model)",
            "precondition": [{"attr": "training", "value": "true"}],
            "passing": 3}], ["nan"])["nan"]
        at = lines.index(next(x for x in lines
                              if x.startswith("detc-check: violation")))
        self.assertEqual(lines[at + 1], "  invariant: "
                         "APIOutput(forward:model)")
        excerpt = json.loads(lines[at + 2][len("  excerpt: "):])
        self.assertEqual(excerpt, {"api": "forward:model", "epoch": 0,
                                   "grad_enabled": True, "step": 2,
                                   "training": True})

    def test_each_fault_is_reported_at_its_step(self):
        expected = {
            "float64": "forward:model got a first argument of dtype "
                       "float64 where its previous call's had float32",
            "nan": "forward:model returned a result with non-finite "
                   "elements",
            "inf": "forward:model returned a result with non-finite "
                   "elements",
            "same_batch": "forward:model got the same first argument as "
                          "in the previous step",
            "frozen": "parameter 0.weight has requires_grad = false",
            "lr": "the learning rates changed within epoch 0",
            "no_zero_grad": "the step calls backward but never "
                            "optimizer.zero_grad",
        }
        for fault, detail in expected.items():
            with self.subTest(fault=fault):
                found = self.run_with(fault)
                self.assertTrue(found, fault)
                self.assertIn(detail, found[0])
                self.assertIn("(epoch 0, step 2)", found[0])


class ScopeAndDrawTest(unittest.TestCase):
    def test_scope_is_per_example_and_restores_state(self):
        np.random.seed(1)
        random.seed(1)
        before = (np.random.get_state()[1].copy(), random.getstate())
        gens = ((1, "numpy"), (2, "random"), (3, "torch"))
        torch_before = torch.random.get_rng_state()
        with rt.ExampleScope(9, gens, 0, 5):
            a = (np.random.rand(), random.random(), torch.rand(1).item())
        with rt.ExampleScope(9, gens, 0, 6):
            b = (np.random.rand(), random.random(), torch.rand(1).item())
        with rt.ExampleScope(9, gens, 0, 5):
            c = (np.random.rand(), random.random(), torch.rand(1).item())
        self.assertEqual(a, c)
        self.assertNotEqual(a, b)
        self.assertTrue(np.array_equal(np.random.get_state()[1], before[0]))
        self.assertEqual(random.getstate(), before[1])
        self.assertTrue(torch.equal(torch.random.get_rng_state(),
                                    torch_before))

    def test_keyed_rows_follow_keys(self):
        STATE.batch = KeyContext(0, [3, 8])
        a = rt.keyed(5, 1, torch.randn_like)(torch.empty(2, 4))
        STATE.batch = KeyContext(0, [8])
        b = rt.keyed(5, 1, torch.randn_like)(torch.empty(1, 4))
        STATE.batch = None
        self.assertTrue(torch.equal(a[1], b[0]))

    def test_keyed_dropout_module(self):
        make = rt.keyed_module(2, 1, torch.nn.Dropout)
        drop = make(p=0.25)
        self.assertIsInstance(drop, torch.nn.Dropout)
        STATE.batch = KeyContext(0, list(range(64)))
        y = drop(torch.ones(64, 1000))
        STATE.batch = None
        self.assertEqual(set(torch.unique(y).tolist()),
                         {0.0, float(np.float32(1 / 0.75))})
        self.assertAlmostEqual(float((y == 0).float().mean()), 0.25,
                               delta=0.01)
        drop.eval()
        x = torch.ones(3, 3)
        self.assertIs(drop(x), x)
        restored = pickle.loads(pickle.dumps(drop))
        self.assertEqual(restored._detc_site, 2)

    def test_keyed_dropout_pickles_as_the_layer_it_replaces(self):
        # word_language_model saves its model whole and loads it back with
        # `torch.serialization.safe_globals([..., torch.nn.Dropout, ...])`:
        # pickled as detc's class, the load failed under torch >= 2.6, and
        # the file needed detc_runtime wherever it was loaded.
        drop = rt.keyed_module(2, 1, torch.nn.Dropout)(p=0.25)
        data = pickle.dumps(torch.nn.Sequential(drop))
        self.assertNotIn(b"detc_runtime", data)
        self.assertIn(b"torch.nn.modules.dropout", data)
        # Loaded in a run with the runtime, it is keyed again.
        loaded = pickle.loads(data)[0]
        self.assertIs(type(loaded), type(drop))
        self.assertEqual((loaded._detc_site, loaded.p), (2, 0.25))
        plain = pickle.loads(pickle.dumps(torch.nn.Dropout(0.5)))
        self.assertIs(type(plain), torch.nn.Dropout)
        if hasattr(torch.serialization, "safe_globals"):
            buffer = io.BytesIO()
            torch.save(torch.nn.Sequential(drop), buffer)
            buffer.seek(0)
            with torch.serialization.safe_globals(
                    [torch.nn.Sequential, torch.nn.Dropout]):
                again = torch.load(buffer, weights_only=True)[0]
            self.assertEqual(again._detc_site, 2)

    def test_imported_layers_keyed_and_torchs_own_pickle_together(self):
        # word_language_model's Transformer: its model.py's nn.Dropout is
        # keyed (key_imported_layers), TransformerEncoderLayer builds its
        # dropout from torch's own module (not keyed). With the keyed
        # class put in place of torch.nn.modules.dropout.Dropout too, the
        # model could not be saved whole (PicklingError: "not the same
        # object as torch.nn.modules.dropout.Dropout").
        self.addCleanup(setattr, torch.nn, "Dropout", torch.nn.Dropout)
        rt.key_imported_layers(4, 1, ("torch.nn.Dropout",))
        model = torch.nn.Sequential(
            torch.nn.Dropout(0.3),
            torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.1))
        self.assertEqual(model[0]._detc_site, 4)
        loaded = pickle.loads(pickle.dumps(model))
        self.assertEqual((loaded[0]._detc_site, loaded[0].p), (4, 0.3))
        self.assertIsInstance(loaded[0], rt.draws.KeyedDropout)
        self.assertIs(type(loaded[1].dropout), type(model[1].dropout))

    def test_keyed_draws_follow_the_tensors_device(self):
        """Keyed values are drawn on the CPU and must land where the model
        is (issue 43: on CUDA, `x * mask` of a CPU dropout mask raised at
        the first forward; keyed randn(..., device=) dropped the device).
        The meta device raises the same "Expected all tensors to be on the
        same device" error as CUDA, so the CPU-only suite checks it."""
        drop = rt.keyed_module(2, 1, torch.nn.Dropout)(p=0.5)
        STATE.batch = KeyContext(0, [0, 1, 2, 3])
        try:
            y = drop(torch.ones(4, 8, device="meta"))
            self.assertEqual(y.device.type, "meta")
            y = rt.keyed(7, 1, torch.nn.functional.dropout)(
                torch.ones(4, 8, device="meta"), 0.5)
            self.assertEqual(y.device.type, "meta")
            z = rt.keyed(5, 1, torch.randn)(4, 3, device="meta",
                                            requires_grad=True)
            self.assertEqual((z.device.type, z.requires_grad), ("meta", True))
            STATE.batch = KeyContext(0, [0, 1, 2, 3])
            a = rt.keyed(5, 1, torch.randn)(4, 3, device="cpu",
                                            requires_grad=True)
            STATE.batch = KeyContext(0, [0, 1, 2, 3])
            b = rt.keyed(5, 1, torch.randn)(4, 3)
            self.assertTrue(a.requires_grad)
            self.assertTrue(torch.equal(a.detach(), b))
        finally:
            STATE.batch = None

    def test_seeding_records_the_seed(self):
        rt.seeding(42, random.seed)(1234)
        self.assertEqual(STATE.seeds[42], 1234)

    def test_seeding_records_the_seed_of_each_library_a_call_seeds(self):
        seen = []
        rt.seeding((43, 44), lambda seed=None: seen.append(seed))(seed=99)
        self.assertEqual((STATE.seeds[43], STATE.seeds[44], seen),
                         (99, 99, [99]))


class ProfileTablesTest(unittest.TestCase):
    """profile.py's line bookkeeping (the tracer itself runs end to end in
    test/e2e/hint_profile.py)."""

    def test_line_map_round_trip(self):
        from detc_runtime.profile import LineMap
        # 2 lines inserted before original line 3, 4 before line 10.
        m = LineMap("3:2,10:4")
        inserted = {3, 4, 12, 13, 14, 15}
        original = 1
        for line in range(1, 30):
            if line in inserted:
                self.assertIsNone(m.original(line))
                continue
            self.assertEqual(m.original(line), original)
            self.assertEqual(m.output(original), line)
            original += 1

    def test_continuation_lines_fold_into_the_statement(self):
        import tempfile
        from detc_runtime.profile import _statement_lines
        source = ("x = f(1,\n"
                  "      2)\n"
                  "for i in range(\n"
                  "        3):\n"
                  "    y = [i,\n"
                  "         i]\n")
        with tempfile.NamedTemporaryFile("w", suffix=".py") as f:
            f.write(source)
            f.flush()
            self.assertEqual(_statement_lines(f.name), {2: 1, 4: 3, 6: 5})


class FingerprintTest(unittest.TestCase):
    """fingerprint.py: what a restore sets back and checks."""

    def test_verify_mode_comes_from_the_environment(self):
        # DETC_VERIFY, read once per process: full digests every byte,
        # off records nothing beyond the global generators, anything else
        # is the default, sampled digests.
        import subprocess
        for value, expected in (("full", "full"), ("off", "off"),
                                ("bogus", "sample"), (None, "sample")):
            env = dict(os.environ)
            env.pop("DETC_VERIFY", None)
            if value is not None:
                env["DETC_VERIFY"] = value
            out = subprocess.run(
                [sys.executable, "-c", "from detc_runtime import "
                 "fingerprint as f; import sys; "
                 "print(f.mode(), f.capture(sys._getframe())['mode'], "
                 "'named' in f.capture(None))"],
                env=env, capture_output=True, text=True, check=True)
            self.assertEqual(out.stdout.split(), [
                expected, expected, str(expected != "off")])

    def test_restore_sets_every_global_generator_and_stream_offset(self):
        from detc_runtime import fingerprint
        torch.manual_seed(1)
        np.random.seed(2)
        random.seed(3)
        STATE.sequential = {5: 7, ("batch", 6): 2}
        fp = fingerprint.capture(None)
        expected = (torch.rand(3), np.random.rand(3), random.random())
        torch.rand(5)
        np.random.rand(5)
        random.random()
        STATE.sequential = {}
        fingerprint.restore(fp)
        self.assertEqual(STATE.sequential, {5: 7, ("batch", 6): 2})
        got = (torch.rand(3), np.random.rand(3), random.random())
        self.assertTrue(torch.equal(expected[0], got[0]))
        self.assertTrue(np.array_equal(expected[1], got[1]))
        self.assertEqual(expected[2], got[2])
        fingerprint.restore(fp)
        self.assertEqual(fingerprint.verify(fp), [])
        STATE.sequential = {}

    def test_boundary_records_generators_the_minibatch_draws_from(self):
        # A just-in-time boundary takes numpy's and random's states when
        # the checkpoint is written, unless the minibatch draws from them
        # outside keyed draws (`drawn`): then as of the boundary, which a
        # restart restores (NeRF's np.random.choice in its loop).
        from detc_runtime import fingerprint
        np.random.seed(4)
        random.seed(5)
        ahead = fingerprint.Moment(None, boundary=True, drawn=("numpy",))
        late = fingerprint.Moment(None, boundary=True)
        expected = np.random.rand(3)  # the failed minibatch's draw
        random.random()
        for moment, numpy_as_of_boundary in ((ahead, True), (late, False)):
            fingerprint.restore(moment.encode())
            got = np.random.rand(3)
            self.assertEqual(np.array_equal(expected, got),
                             numpy_as_of_boundary)
        # random's is taken as of the failure either way: not drawn.
        fingerprint.restore(ahead.encode())
        state = random.getstate()
        random.seed(5)
        random.random()
        self.assertEqual(random.getstate(), state)
        STATE.sequential = {}

    def test_gathered_windows_digest_like_the_whole_tensor(self):
        # What a digest does for tensors on a GPU (their windows gathered
        # there, one copy for all), run on the CPU: the same text as the
        # core's sampled digest of each tensor, for every dtype, a size on
        # each side of the 16 KB that is hashed whole, empty, 0-dim and
        # non-contiguous tensors.
        from detc_runtime import fingerprint
        g = torch.Generator().manual_seed(3)
        base = torch.randint(0, 2 ** 31, (1 << 18,), generator=g)
        tensors = []
        for dtype in (torch.float32, torch.float16, torch.bfloat16,
                      torch.float64, torch.int64, torch.int32, torch.uint8,
                      torch.bool, torch.complex64):
            for n in (0, 1, 4095, 4096, 4097, 16384, 16385, 100003):
                tensors.append((base[:n] % 251).to(dtype))
        tensors += [base[:12].reshape(3, 4).t(),      # non-contiguous
                    base[:300000 // 8].reshape(-1, 3)[:, 1],
                    torch.tensor(2.5), torch.zeros(0, 5)]
        expected = [fingerprint._tensor_digest(t, False) for t in tensors]
        self.assertEqual(fingerprint._device_digests(tensors), expected)
        # Windows matter: a byte in the last window changes the digest.
        t = base.clone()
        t[-1] += 1
        self.assertNotEqual(fingerprint._device_digests([t]),
                            fingerprint._device_digests([base]))

    @unittest.skipUnless(torch.cuda.is_available(), "no CUDA device")
    def test_state_on_the_gpu_digests_like_its_cpu_copy(self):
        from detc_runtime import fingerprint
        model = torch.nn.Sequential(torch.nn.Linear(300, 200),
                                    torch.nn.Linear(200, 3)).cuda()
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        model(torch.randn(4, 300, device="cuda")).sum().backward()
        opt.step()
        state = {"model": model.state_dict(), "opt": opt.state_dict()}
        on_cpu = {"model": {k: v.cpu() for k, v in
                            model.state_dict().items()},
                  "opt": torch.optim.SGD(
                      [p.detach().cpu() for p in model.parameters()],
                      lr=0.1, momentum=0.9).state_dict()}
        on_cpu["opt"]["state"] = {
            k: {n: v.cpu() for n, v in s.items()}
            for k, s in opt.state_dict()["state"].items()}
        self.assertEqual(fingerprint.digest(state["model"]),
                         fingerprint.digest(on_cpu["model"]))
        self.assertEqual(fingerprint.digest(state["opt"]),
                         fingerprint.digest(on_cpu["opt"]))

    def test_verify_names_a_generator_and_state_that_differ(self):
        from detc_runtime import fingerprint
        import sys
        g = torch.Generator().manual_seed(5)
        model = torch.nn.Linear(3, 2)
        fp = fingerprint.capture(sys._getframe())
        fp["state"] = {"'model'": fingerprint.digest(model.state_dict())}
        state = {"'model'": lambda: model.state_dict()}
        self.assertEqual(fingerprint.verify(fp, state, sys._getframe()), [])
        torch.rand(2, generator=g)
        with torch.no_grad():
            model.weight[1, 2] += 1
        problems = fingerprint.verify(fp, state, sys._getframe())
        self.assertEqual(len(problems), 2, problems)
        self.assertIn("generator 'g'", problems[0])
        self.assertIn("'model'", problems[1])

    def test_state_digested_from_the_checkpoint_at_the_resume(self):
        # A user checkpoint's fingerprint leaves the state's digests to
        # the resume (of the checkpoint as it loads): verify() asks for
        # them only when there is restored state to compare.
        from detc_runtime import fingerprint
        model = torch.nn.Linear(3, 2)
        fp = dict(fingerprint.capture(None), state_from="checkpoint")
        self.assertTrue(fingerprint.valid(fp))
        self.assertTrue(fingerprint.state_from_checkpoint(
            {"fingerprint": fp}))
        self.assertFalse(fingerprint.valid(dict(fp, state_from="file")))
        saved = {"'model'": fingerprint.digest(model.state_dict())}
        asked = []

        def saved_state(full):
            asked.append(full)
            return saved

        state = {"'model'": lambda: model.state_dict()}
        self.assertEqual(fingerprint.verify(fp, state, None, saved_state),
                         [])
        self.assertEqual(fingerprint.verify(fp, {}, None, saved_state), [])
        self.assertEqual(asked, [False])
        with torch.no_grad():
            model.bias[0] += 1
        problems = fingerprint.verify(fp, state, None, saved_state)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("'model': the restored state differs", problems[0])
        # An earlier detc's fingerprint holds the digests itself.
        self.assertFalse(fingerprint.state_from_checkpoint(
            {"fingerprint": dict(fp, state=saved)}))

    def test_state_dict_with_an_entry_of_its_own_is_checked_per_entry(self):
        # Pytorch-UNet saves `model.state_dict()` with a 'mask_values' entry
        # of its own: the checkpoint is digested entry by entry (it holds
        # more than tensors), and the restore's whole-object thunk (the
        # model's state dict) is compared entry by entry with it. Before,
        # no name matched and nothing was compared.
        from detc_runtime import fingerprint
        model = torch.nn.Linear(3, 2)
        fp = dict(fingerprint.capture(None), state_from="checkpoint")
        checkpoint = dict(model.state_dict(), mask_values=[0, 255])
        saved = fingerprint.state_digests(checkpoint, False)
        self.assertIn("'weight'", saved)
        self.assertIn("'mask_values'", saved)
        state = {"<checkpoint>": lambda: model.state_dict()}
        self.assertEqual(
            fingerprint.verify(fp, state, None, lambda full: saved), [])
        with torch.no_grad():
            model.weight[0, 0] += 1
        problems = fingerprint.verify(fp, state, None, lambda full: saved)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("'weight': the restored state differs", problems[0])
    def test_named_generators_of_a_frame(self):
        # Variables and their attributes one level down; first binding of
        # a name wins (the function's before its module's); modules,
        # tensors, keyed loaders and dunder names are passed over.
        from detc_runtime import fingerprint
        import sys

        class Holder:
            pass

        class NoDict:
            __slots__ = ("rng",)

        class Raises:
            @property
            def __dict__(self):
                raise AttributeError("none")

        data = Holder()
        data.rng = np.random.RandomState(1)
        data.other = 3
        many = Holder()
        for i in range(70):
            setattr(many, "a%02d" % i, torch.Generator() if i in (3, 66)
                    else i)
        keyed = Holder()
        keyed._detc_sampler = 1
        keyed.gen = torch.Generator()
        module = torch.nn.Linear(2, 2)
        module.gen = torch.Generator()
        slots = NoDict()
        slots.rng = random.Random(2)
        raises = Raises()
        __hidden__ = torch.Generator()  # noqa: F841
        g = torch.Generator().manual_seed(8)
        npg = np.random.default_rng(3)
        found = fingerprint.named_generators(sys._getframe())
        self.assertEqual(sorted(found), ["data.rng", "g", "many.a03",
                                         "npg"])
        # Version 4's digests (XXH3); an earlier detc's (blake2b) for
        # the fingerprints it wrote.
        self.assertEqual(found["g"], "gen4:%016x" % _core.buffer_hash(
            g.get_state().numpy()))
        self.assertEqual(fingerprint.named_generators(
            sys._getframe(), 3)["data.rng"], "gen:" + fingerprint._hash(
                fingerprint._generator_bytes(data.rng)))
        g.manual_seed(9)
        self.assertNotEqual(fingerprint.named_generators(
            sys._getframe())["g"], found["g"])
        del raises, slots, module, keyed, many, data, npg, g

    def test_core_walk_digests_as_the_python_walk_did(self):
        # The core walks containers, scalars and CPU tensors
        # (StateDigest.cpp); its texts must be those of the Python walk it
        # replaced, so that fingerprints an earlier detc wrote verify. The
        # reference below is that walk.
        from detc_runtime import fingerprint
        import hashlib
        scalars = (bool, int, float, complex, str, bytes, type(None))

        def ref_digest(value, full=False):
            parts = []
            ref_walk(value, full, parts, 0, set())
            if len(parts) == 1 and len(parts[0]) <= 64:
                return parts[0]
            return hashlib.blake2b("\x1f".join(parts).encode(
                "utf-8", "surrogatepass"), digest_size=8).hexdigest()

        def ref_entry(v, full, parts, depth, seen):
            if type(v) in scalars:
                parts.append(repr(v))
            elif type(v) in (torch.Tensor, torch.nn.Parameter):
                parts.append(fingerprint._tensor_digest(v, full))
            else:
                ref_walk(v, full, parts, depth + 1, seen)

        def ref_walk(value, full, parts, depth, seen):
            if type(value) in scalars:
                parts.append(repr(value))
            elif depth > 8 or id(value) in seen:
                parts.append("...")
            elif isinstance(value, (dict, list, tuple)):
                seen.add(id(value))
                if isinstance(value, dict):
                    parts.append("{")
                    for k, v in value.items():
                        parts.append(repr(k) if type(k) in scalars
                                     else ref_digest(k, full))
                        ref_entry(v, full, parts, depth, seen)
                    parts.append("}")
                else:
                    parts.append("[")
                    for v in value:
                        ref_entry(v, full, parts, depth, seen)
                    parts.append("]")
                seen.discard(id(value))
            elif isinstance(value, torch.Tensor):
                parts.append(fingerprint._tensor_digest(value, full))
            else:  # what the core hands to Python
                fingerprint._walk_other(value, full, parts, depth, seen)

        class Backwards(list):
            def __iter__(self):
                return reversed(self[:])

        g = torch.Generator().manual_seed(4)
        model = torch.nn.Sequential(torch.nn.Linear(8, 16),
                                    torch.nn.BatchNorm1d(16))
        opt = torch.optim.Adam(model.parameters())
        model(torch.randn(4, 8, generator=g)).sum().backward()
        opt.step()
        moved = collections.OrderedDict([("a", 1), ("b", torch.ones(3))])
        moved.move_to_end("a")
        deep = []
        for _ in range(12):
            deep = [deep, 1]
        cycle = {"x": 1.5}
        cycle["self"] = cycle
        pair = collections.namedtuple("Pair", "a b")
        values = [
            1, 2.5, "s", b"b", None, True, 3 + 4j, [], {}, (),
            torch.tensor(3.0), torch.zeros(0), torch.zeros(0, 5),
            torch.arange(10).reshape(2, 5).t(), torch.arange(6)[::2],
            torch.randn(300, 300, generator=g), torch.ones(5).half(),
            torch.nn.Parameter(torch.randn(4, generator=g)),
            torch.ones(3, dtype=torch.complex64),
            torch.ones(2, dtype=torch.bool), model.state_dict(),
            opt.state_dict(), {"model": model.state_dict(), "epoch": 3,
                               "opt": opt.state_dict(), "lr": [0.1]},
            model, opt, moved, pair(1, torch.ones(2)),
            Backwards([1, torch.ones(1), "x"]), deep, cycle,
            np.arange(5), np.array(["a"]), g, random.Random(4),
            {(1, 2): 3, torch.ones(1): 4,
             5: [torch.ones(2, 2), {"k": (1, 2.0)}]},
            torch.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (3,)),
            [model.state_dict()] * 3, object(), int, torch.float32]
        for full in (False, True):
            for v in values:
                self.assertEqual(fingerprint.digest(v, full),
                                 ref_digest(v, full), repr(v)[:60])

    def test_sampled_digest_sees_both_ends_and_full_mode_every_byte(self):
        from detc_runtime import fingerprint
        t = torch.zeros(1 << 20)
        d = fingerprint.digest(t)
        for i in (0, t.numel() - 1):
            u = t.clone()
            u[i] = 1
            self.assertNotEqual(fingerprint.digest(u), d)
        u = t.clone()
        u[1000] = 1  # between the first two windows
        self.assertEqual(fingerprint.digest(u), d)
        self.assertNotEqual(fingerprint.digest(u, full=True),
                            fingerprint.digest(t, full=True))

    def test_global_digests_of_every_version_see_every_field(self):
        # Versions 3 and 4 digest the states' bytes in the runtime core
        # (4 differs in its named generators' digests), version
        # 2 (an earlier detc) the libraries' raw states with blake2b,
        # version 1 the encoded states: sidecars of each still verify, and
        # each sees a change that moves no generator word: numpy's cached
        # second Gaussian, random's.
        from detc_runtime import fingerprint
        from detc_runtime import global_generators as gg
        np.random.seed(4)
        np.random.standard_normal()  # leaves a Gaussian cached
        random.seed(5)
        random.gauss(0, 1)
        fp4 = fingerprint.capture(None)
        self.assertEqual(fp4["version"], 4)
        fp3 = dict(fp4, version=3)
        raw = gg.raw_states()
        fp2 = dict(fp3, version=2, global_digests={
            n: gg.digest_v2(n, s) for n, s in raw.items()})
        fp1 = dict(fp3, global_digests={
            n: gg.digest_v1(s) for n, s in fp3["globals"].items()})
        del fp1["version"]
        for fp in (fp1, fp2, fp3, fp4):
            fingerprint.restore(fp)
            self.assertEqual(fingerprint.verify(fp), [])
            np.random.standard_normal()  # uses the cached one: same words
            random.gauss(0, 1)
            problems = fingerprint.verify(fp)
            self.assertEqual(len(problems), 2, problems)
            self.assertIn("numpy generator", problems[0])
            self.assertIn("random generator", problems[1])
        self.assertFalse(fingerprint.valid(dict(fp3, version=5)))

    def test_generator_memory_reads_agree_with_the_libraries(self):
        # numpy's and random's states are read from their memory (located
        # once, checked against get_state/getstate); in every state a
        # script leaves them in, both readings agree, and the encoded
        # state sets back what was read.
        from detc_runtime import global_generators as gg
        layouts = ((gg._NumpyLayout, np.random.mtrand._rand, "numpy"),
                   (gg._RandomLayout, random._inst, "random"))
        for step in range(4):
            np.random.seed(step)
            random.seed(step)
            for _ in range(step):
                np.random.standard_normal()
                random.gauss(0, 1)
            np.random.randint(0, 10, size=step * 300)  # moves pos
            encoded = {}
            for layout, owner, name in layouts:
                state = layout.state(owner)
                self.assertIsNot(layout.offset, False, name)
                self.assertEqual(state, layout.via_library(owner))
                encoded[name] = gg.encode(name, state)[0]
            expected = (np.random.rand(3).tolist(), random.random())
            np.random.rand(7)
            random.random()
            for name, state in encoded.items():
                gg.set_state(name, state)
            self.assertEqual((np.random.rand(3).tolist(), random.random()),
                             expected)

    def test_generator_memory_reads_fall_back_to_the_libraries(self):
        # A layout that is not the expected one (another numpy or Python)
        # is never used: the libraries' own readers are, from then on.
        from detc_runtime import global_generators as gg
        layouts = ((gg._NumpyLayout, np.random.mtrand._rand, 8),
                   (gg._RandomLayout, random._inst, 0))
        saved = [(layout.offset, layout.checked) for layout, _, _ in layouts]
        try:
            np.random.seed(9)
            np.random.standard_normal()
            for layout, owner, wrong in layouts:
                layout.offset, layout.checked = wrong, None
                self.assertEqual(layout.state(owner),
                                 layout.via_library(owner))
                self.assertIs(layout.offset, False)
        finally:
            for (layout, _, _), (offset, checked) in zip(layouts, saved):
                layout.offset, layout.checked = offset, checked

    def test_malformed_fingerprints_are_refused(self):
        from detc_runtime import fingerprint
        fp = fingerprint.capture(None)
        self.assertTrue(fingerprint.valid(fp))
        for bad in ({}, {"globals": [], "sequential": []},
                    dict(fp, sequential=[[1, 2]]),
                    dict(fp, named={"g": 3})):
            self.assertFalse(fingerprint.valid(bad), bad)
        broken = dict(fp, globals={"torch": {"bytes": "AAAA"}})
        with self.assertRaises(fingerprint.Mismatch):
            fingerprint.restore(broken)


class _PassedLoader:
    _detc_site = 7


class ContinuationTest(unittest.TestCase):
    """continuation.py: what the first pass over a loader after a commit
    records, and a script's own resume that continues there — or says
    why it does not, and never goes on from a record that does not load."""

    def setUp(self):
        from detc_runtime import continuation
        self.c = continuation
        self.addCleanup(continuation.forget_in_child)

    def record(self, frame, names=()):
        records = {}
        self.c._WRITING = (None, 1, 1, records, {"7"}, list(names))
        self.c.pass_begins(_PassedLoader(), frame)
        self.assertIsNone(self.c._WRITING)  # every loader it knew passed
        return {"seeds": {"override": STATE.override},
                "continuation": records}

    def test_own_resume_continues_where_the_run_went_on(self):
        model = torch.nn.Linear(3, 2)  # noqa: F841 (digested by name)
        torch.manual_seed(5)
        body = self.record([sys._getframe()])
        expected = torch.rand(4)
        torch.manual_seed(6)  # the resumed run starts afresh
        self.c.own_load("ck.pt", body)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.c.pass_begins(_PassedLoader(), [sys._getframe()])
        self.assertTrue(torch.equal(torch.rand(4), expected))
        self.assertIn("detc continues the run that wrote it", err.getvalue())
        self.assertIsNone(self.c._OWN)

    def test_own_resume_that_leaves_state_out_says_so_and_sets_nothing(self):
        model = torch.nn.Linear(3, 2)
        body = self.record([sys._getframe()])
        with torch.no_grad():
            model.weight.add_(1)  # not the state the run had there
        torch.manual_seed(6)
        expected = torch.rand(4)
        torch.manual_seed(6)
        self.c.own_load("left-out.pt", body)
        self.c.pass_begins(_PassedLoader(), [sys._getframe()])
        self.assertTrue(torch.equal(torch.rand(4), expected))
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.c.committed(None, {"loaders": {}}, "next.pt")
        self.assertIn("left-out.pt: the script resumed from this checkpoint "
                      "with its own code, and this run does not continue the "
                      "one that wrote it bit for bit: 'model' (in test_own_"
                      "resume_that_leaves_state_out_says_so_and_sets_"
                      "nothing) is not the state", err.getvalue())

    def test_a_script_without_a_keyed_loader_is_told_why(self):
        # nanoGPT's shape: its batches are its own draws; nothing records
        # where its run went on.
        self.c.own_load("no-loader.pt", {"seeds": {"override": None},
                                         "loaders": {}})
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.c.committed(None, {"loaders": {}}, "no-loader.pt")
        self.assertIn("the two runs meet at a pass over a DataLoader detc "
                      "keys, and this script iterates none", err.getvalue())

    def test_a_value_the_resume_leaves_out_is_named(self):
        # The loss history detc saves beside the checkpoint: a script's
        # own resume that starts it afresh continues the run (its model,
        # optimizer are that run's) and says what may differ.
        history = [0.5, 0.25]
        step = 7  # noqa: F841 (digested by name)
        body = self.record([sys._getframe()], ["history", "step",
                                               "gen:torch", "main/elsewhere"])
        self.assertEqual(sorted(body["continuation"]["7"]["values"]),
                         ["history", "step"])
        history = []  # noqa: F841
        self.c.own_load("history.pt", body)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.c.pass_begins(_PassedLoader(), [sys._getframe()])
        self.assertIsNone(self.c._OWN)
        self.assertIn("detc continues the run that wrote it", err.getvalue())
        self.assertIn("history.pt: the script's own resume does not restore "
                      "'history' as the run that wrote it had it here",
                      err.getvalue())

    def test_objects_of_the_callers_are_compared(self):
        # The pass is taken in a helper (DeiT's `log_every`); the optimizer
        # is its caller's.
        optimizer = torch.optim.SGD(torch.nn.Linear(2, 2).parameters(),
                                    lr=0.1, momentum=0.9)

        def helper():
            return [sys._getframe(), sys._getframe(1)]

        body = self.record(helper())
        optimizer.param_groups[0]["lr"] = 0.5
        self.c.own_load("callers.pt", body)
        self.c.pass_begins(_PassedLoader(), helper())
        self.assertIn("'optimizer' (in test_objects_of_the_callers_are_"
                      "compared) is not the state", self.c._OWN[2])

    def test_a_job_s_checkpoint_is_told_why(self):
        self.c.own_load("job.pt", {"seeds": {"override": None},
                                   "loaders": {"7": {}}, "world_size": 2})
        self.c.pass_begins(_PassedLoader(), [sys._getframe()])
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.c.committed(None, {"loaders": {}}, "job.pt")
        self.assertIn("written by a job of several processes", err.getvalue())

    def test_a_record_that_does_not_load_stops_the_run(self):
        body = self.record([sys._getframe()])
        body["continuation"]["7"]["fingerprint"]["globals"]["torch"] = {
            "state": "not a state"}
        self.c.own_load("ck.pt", body)
        with contextlib.redirect_stderr(io.StringIO()):
            with self.assertRaises(SystemExit) as e:
                self.c.pass_begins(_PassedLoader(), [sys._getframe()])
        self.assertEqual(e.exception.code, 3)

    def test_a_malformed_record_is_no_continuation(self):
        for record in ("x", {"fingerprint": {}}, {"fingerprint": None}):
            self.c.own_load("ck.pt", {"seeds": {"override": None},
                                      "continuation": {"7": record}})
            self.c.pass_begins(_PassedLoader(), [sys._getframe()])
            self.assertIn("malformed", self.c._OWN[2])


class CallEndTest(unittest.TestCase):
    """call_end.py: what a helper's call changes after the checkpoint it
    writes goes into the sidecar when the call returns (under each name
    the call moved it to); a resume needs that record."""

    def setUp(self):
        import shutil
        import tempfile
        from detc_runtime import holders, replay
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.addCleanup(holders.release)
        self.r = replay.REPLAY
        saved = {k: getattr(self.r, k) for k in (
            "ff", "last_commit", "counts", "target", "checkpoint")}
        self.addCleanup(lambda: [setattr(self.r, k, v)
                                 for k, v in saved.items()])
        self.r.ff, self.r.counts = False, {}
        self.addCleanup(setattr, STATE, "failed", STATE.failed)

    def commit(self, best):
        """The helper's save of instance 1 of site 4, as replay.checkpoint
        commits it: the values as they are at the save."""
        from detc_runtime import moved, sidecar, values
        path = os.path.join(self.dir, "tmp.pt")
        sidecar.save_with_sidecar(
            path, lambda tmp: torch.save({"v": 1}, tmp),
            lambda: {"script_sha256": "0" * 64, "site": 4, "instance": 1,
                     "seeds": {"override": None, "generators": {}},
                     "loaders": {},
                     "values": {"best": values.encode(best, "'best'")}})
        self.r.counts[4] = 1
        self.r.last_commit = (4, 1, moved.last_serial())
        return path

    def test_the_values_at_the_call_end_replace_those_at_the_save(self):
        from detc_runtime import call_end, sidecar, values
        tmp = self.commit(0.5)
        last = os.path.join(self.dir, "last.pt")
        os.replace(tmp, last)  # the helper renames it after its save
        best = 0.25  # and finds a better best
        call_end.call_returned(4, {"best": lambda: best})
        body = sidecar.load(last)
        self.assertIs(body["returned"], True)
        self.assertEqual(values.decode(body["values"]["best"], None), 0.25)
        self.assertIsNone(self.r.last_commit)
        self.r.target, self.r.checkpoint = body, last
        call_end.returned_recorded("saver.save_checkpoint")  # no exit

    def test_a_call_that_wrote_nothing_or_fast_forward_records_nothing(self):
        from detc_runtime import call_end, sidecar
        tmp = self.commit(0.5)
        call_end.call_returned(5, {"best": lambda: 0.1})  # another site's
        self.r.counts[4] = 2  # a later call of the helper did not save
        call_end.call_returned(4, {"best": lambda: 0.1})
        self.r.counts[4], self.r.ff = 1, True
        call_end.call_returned(4, {"best": lambda: 0.1})
        self.assertNotIn("returned", sidecar.load(tmp))

    def test_a_loaded_object_the_call_changed_after_its_save_is_named(self):
        # The rest of the call may change what the restore loads from the
        # checkpoint (an opaque call on the saver holding the model): the
        # record holds its digests as the call left them.
        from detc_runtime import call_end, fingerprint, sidecar
        tmp = self.commit(0.5)
        model = torch.nn.Linear(3, 2)
        state = {"state_dict": lambda: model.state_dict()}
        call_end.call_returned(4, {}, state)
        body = sidecar.load(tmp)
        self.assertIn("'state_dict'", body["state_at_return"])
        named = {"'state_dict'": state["state_dict"]}
        self.assertEqual(fingerprint.changed_after_save(body, tmp, named), [])
        with torch.no_grad():
            model.weight.add_(1)  # as the checkpoint has it: not as the
        self.assertEqual(  # call left it
            fingerprint.changed_after_save(body, tmp, named),
            ["'state_dict': the call that wrote the checkpoint changed it "
             "after the save, and the resume has it as saved"])
        err = io.StringIO()
        with contextlib.redirect_stderr(err), \
                self.assertRaises(SystemExit) as stop:
            fingerprint.changed_after_save(
                dict(body, state_at_return=["x"]), tmp, named)
        self.assertEqual(stop.exception.code, 2)

    def test_a_sidecar_without_the_record_is_refused(self):
        from detc_runtime import call_end, sidecar
        tmp = self.commit(0.5)  # the run died before the call returned
        self.r.target, self.r.checkpoint = sidecar.load(tmp), tmp
        err = io.StringIO()
        with contextlib.redirect_stderr(err), \
                self.assertRaises(SystemExit) as stop:
            call_end.returned_recorded("saver.save_checkpoint")
        self.assertEqual(stop.exception.code, 3)
        self.assertIn("stopped before 'saver.save_checkpoint' returned",
                      err.getvalue())
        self.r.target = dict(self.r.target, world_size=2)
        with contextlib.redirect_stderr(err), \
                self.assertRaises(SystemExit) as stop:
            call_end.returned_recorded("saver.save_checkpoint")
        self.assertEqual(stop.exception.code, 3)
        self.assertIn("a job of several processes", err.getvalue())


class ReplayHelpersTest(unittest.TestCase):
    def test_loop_position_is_checked_where_the_target_is_reached(self):
        # Swin's own auto-resume starts the epoch loop at the checkpoint's
        # epoch + 1: fast-forward reaches the target instance epochs late.
        from detc_runtime import replay

        def frame_with(epoch, batch, lr):
            return sys._getframe(0)

        f = frame_with(1, torch.ones(2), 0.1)
        self.assertEqual(replay._loop_position(f, ("epoch", "batch", "lr",
                                                   "missing")),
                         {"epoch": 1})
        target = {"site": 1, "instance": 2, "position": {"epoch": 1}}
        replay._check_loop_position(target, {"epoch": 1})
        replay._check_loop_position({"site": 1, "instance": 2}, {"epoch": 5})
        for now in ({"epoch": 3}, {}):
            with self.assertRaises(SystemExit) as e, \
                    contextlib.redirect_stderr(io.StringIO()) as err:
                replay._check_loop_position(target, now)
            self.assertEqual(e.exception.code, 3)
            self.assertIn("written with epoch = 1", err.getvalue())
        STATE.failed = False

    def test_rederived_ints_are_compared_with_the_checkpoints(self):
        # nanoGPT's `'iter_num': iter_num` under its own `init_from =
        # 'resume'`: fast-forward reaches the checkpoint iterations late.
        from detc_runtime import replay

        saved_target = replay.REPLAY.target
        replay.REPLAY.target = {"site": 1, "instance": 11}
        try:
            ckpt = {"iter_num": 10, "args": "x", "loss": 0.5}
            replay.check_rederived(ckpt, {"iter_num": lambda: 10,
                                          "args": lambda: "y",
                                          "loss": lambda: 0.25})
            with self.assertRaises(SystemExit) as e, \
                    contextlib.redirect_stderr(io.StringIO()) as err:
                replay.check_rederived(ckpt, {"iter_num": lambda: 20})
            self.assertEqual(e.exception.code, 3)
            self.assertIn("'iter_num' = 20, but the checkpoint holds 10",
                          err.getvalue())
        finally:
            replay.REPLAY.target = saved_target
            STATE.failed = False

    def test_subclasses_of_plain_containers_are_pickled_state(self):
        # Swin saves its yacs config (a dict subclass) in the checkpoint:
        # torch >= 2.6 loads it only with weights_only=False, so the
        # sidecar must say it holds objects (the resume exited 2 before).
        from detc_runtime import replay

        class CfgNode(dict):
            pass

        plain = {"model": {"w": torch.ones(2)}, "epoch": 3,
                 "opt": collections.OrderedDict(lr=[0.1, (1, 2)])}
        self.assertTrue(replay._plain_state(plain))
        self.assertFalse(replay._plain_state(dict(plain, config=CfgNode())))
        self.assertFalse(replay._plain_state(dict(plain, acc=np.float64(1.5))))

    def test_restore_object_loads_into_the_scripts_module(self):
        net = torch.nn.Linear(2, 2)
        saved = torch.nn.Linear(2, 2)
        kept = rt.restore_object(net, saved)
        self.assertIs(kept, net)
        self.assertTrue(torch.equal(net.weight, saved.weight))
        self.assertEqual(rt.restore_object(3, 4), 4)

    def test_restore_value_keeps_a_whole_model_entry_the_scripts(self):
        # mixup-cifar10's {'net': net, 'acc': acc}: the optimizer holds the
        # script's model; rebinding `net` to the unpickled copy left it
        # stepping a model nothing used.
        net = torch.nn.Linear(2, 2)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        saved = torch.nn.Linear(2, 2)
        net = rt.restore_value(lambda: net, saved)
        self.assertIs(opt.param_groups[0]["params"][0], net.weight)
        self.assertTrue(torch.equal(net.weight, saved.weight))
        acc = torch.tensor(9.5)
        self.assertEqual(
            rt.restore_value(lambda: acc, torch.tensor(3.0)).item(), 3.0)

        def unbound():
            return missing  # noqa: F821 (fast-forward skipped its assignment)
        self.assertEqual(rt.restore_value(unbound, 7), 7)

    def test_restore_object_refuses_another_kind_of_module(self):
        # A DataParallel saved whole, a bare model in the resumed run: the
        # optimizer would go on with a model nothing uses. Exit 3.
        from detc_runtime._state import STATE
        self.addCleanup(setattr, STATE, "failed", STATE.failed)
        net = torch.nn.Linear(2, 2)
        with self.assertRaises(SystemExit) as e:
            rt.restore_value(lambda: net, torch.nn.DataParallel(
                torch.nn.Linear(2, 2)))
        self.assertEqual(e.exception.code, 3)

    def test_restore_value_rehomes_an_optimizer_of_another_kind(self):
        # awd-lstm-lm saves [model, criterion, optimizer] whole and
        # switches from SGD to ASGD mid-run; fast-forward skipped the
        # switch: the checkpoint's ASGD must step the run's own model.
        net = torch.nn.Linear(2, 2)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        saved_net = torch.nn.Linear(2, 2)
        saved_opt = torch.optim.ASGD(saved_net.parameters(), lr=0.1, t0=0)
        saved_net(torch.ones(1, 2)).sum().backward()
        saved_opt.step()
        saved_net, saved_opt = pickle.loads(pickle.dumps(
            [saved_net, saved_opt]))
        self.assertIs(rt.restore_value(lambda: net, saved_net), net)
        restored = rt.restore_value(lambda: opt, saved_opt)
        self.assertIsInstance(restored, torch.optim.ASGD)
        self.assertEqual([id(p) for p in restored.param_groups[0]["params"]],
                         [id(p) for p in net.parameters()])
        self.assertEqual(set(map(id, restored.state)),
                         set(map(id, net.parameters())))

    def test_restore_value_refuses_an_optimizer_of_unrestored_params(self):
        from detc_runtime._state import STATE
        self.addCleanup(setattr, STATE, "failed", STATE.failed)
        net = torch.nn.Linear(2, 2)
        stray = torch.optim.ASGD(torch.nn.Linear(2, 2).parameters(), lr=0.1)
        with self.assertRaises(SystemExit) as e:
            rt.restore_value(lambda: torch.optim.SGD(net.parameters(),
                                                     lr=0.1), stray)
        self.assertEqual(e.exception.code, 3)

    def test_batches_reaches_the_loader_through_wrappers(self):
        class Wrapper:  # tqdm keeps what it wraps as .iterable
            def __init__(self, iterable):
                self.iterable = iterable

            def __iter__(self):
                return iter(self.iterable)

        class Loader:
            _detc_sampler = object()

        loader = Loader()
        wrapped = Wrapper(Wrapper(loader))
        self.assertIs(rt.batches(wrapped, 2), wrapped)
        self.assertEqual(loader._detc_arity, 2)

    def test_a_generator_feeding_a_skipped_loop_is_told_so(self):
        # DeiT's `log_every`: fast-forward runs it in full (the evaluation
        # calls it too), but while it feeds a loop fast-forward skips, the
        # statements around its yield do not run (`fed`), nor does its
        # loader load real batches for nothing (`real_batches`).
        class Loader:
            _detc_sampler = object()

            def __iter__(self):
                return iter([rt.SKIPPED, rt.SKIPPED])

        seen = []

        def log_every(iterable):
            for obj in rt.real_batches(iterable):
                seen.append(("real", hasattr(loader, "_detc_real_next")))
                yield obj
                seen.append(("fed", rt.fed()))

        loader = Loader()
        saved = rt.REPLAY.ff
        rt.REPLAY.ff = True
        try:
            shaped = [b for b in rt.batches(log_every(loader), 2)]
            self.assertEqual(shaped, [(rt.SKIPPED, rt.SKIPPED)] * 2)
            self.assertEqual(seen, [("real", False), ("fed", False),
                                    ("real", False), ("fed", False)])
            self.assertTrue(rt.fed())  # not feeding now
            # The same generator feeding a loop that runs (a validation
            # pass, not planned: no `batches`): its statements run.
            seen.clear()
            list(log_every(loader))
            self.assertEqual(seen[1], ("fed", True))
            self.assertTrue(loader.__dict__.pop("_detc_real_next"))
        finally:
            rt.REPLAY.ff = saved
        self.assertEqual(rt.REPLAY.feeding, 0)

    def test_a_function_also_called_outside_the_loop_is_skipped_only_in_its_calls(self):
        # ImageNet's `validate`: run in full before the loop, skipped in the
        # training loop's calls while fast-forwarding (`from_nest`).
        class Loader:
            _detc_sampler = object()

        def validate(loader):
            ran = rt.nest_guard()
            shaped = rt.nest_batches(loader, 2)
            return ran, hasattr(loader, "_detc_real_next"), \
                getattr(loader, "_detc_arity", None), shaped is loader

        saved = rt.REPLAY.ff
        rt.REPLAY.ff = True
        try:
            loader = Loader()
            self.assertEqual(validate(loader), (True, True, None, True))
            del loader._detc_real_next
            self.assertEqual(rt.from_nest(validate)(loader),
                             (False, False, 2, True))
            self.assertEqual(rt.REPLAY.nest_calls, 0)
            with self.assertRaises(ZeroDivisionError):
                rt.from_nest(lambda: 1 / 0)()
            self.assertEqual(rt.REPLAY.nest_calls, 0)
            rt.REPLAY.ff = False
            self.assertIs(rt.from_nest(validate), validate)
        finally:
            rt.REPLAY.ff = saved

    def test_load_unwrapped_loads_into_the_model_an_ema_wraps(self):
        # timm's get_state_dict(model_ema) saved the wrapped model's state.
        class ModelEma:  # timm's first EMA: not a module, `.ema` is one
            def __init__(self, model):
                self.ema = model

        class ModelEmaV2(torch.nn.Module):  # later ones: `.module`
            def __init__(self, model):
                super().__init__()
                self.module = model

        for wrap in (ModelEma, ModelEmaV2, lambda m: m):
            model = torch.nn.Linear(3, 2)
            saved = torch.nn.Linear(3, 2).state_dict()
            rt.load_unwrapped(wrap(model), saved)
            self.assertTrue(torch.equal(model.weight, saved["weight"]))

    def test_seed_globals_makes_unseeded_draws_repeat(self):
        rt.seed_globals(7)
        first = (torch.rand(2), np.random.rand(), random.random())
        rt.seed_globals(7)
        again = (torch.rand(2), np.random.rand(), random.random())
        self.assertTrue(torch.equal(first[0], again[0]))
        self.assertEqual(first[1:], again[1:])
        rt.seed_globals(8)
        self.assertFalse(torch.equal(first[0], torch.rand(2)))


class SidecarPayloadTest(unittest.TestCase):
    """A sidecar's tensors are raw bytes after its JSON line (version 2):
    a U-Net's optimizer moments as base64 JSON made a 331 MB sidecar its
    own resume refused to read."""

    def _body(self, values, tensors):
        return {"script_sha256": "", "checkpoint": {}, "site": 1,
                "instance": 1, "loaders": {}, "values": values,
                "seeds": {"override": None, "generators": {}},
                "tensors": tensors}

    def test_tensors_round_trip_through_the_payload(self):
        from detc_runtime import sidecar, values
        opt_state = {"moments": torch.randn(300, 40),
                     "half": torch.randn(7).to(torch.bfloat16),
                     "mask": torch.rand(5) > 0.5,
                     "step": torch.tensor(12), "empty": torch.zeros(0, 3),
                     "strided": torch.randn(6, 4).t()}
        tensors = []
        encoded = values.encode(opt_state, "opt", tensors)
        data = sidecar.encode(self._body({"opt": encoded}, tensors))
        header, _, payload = data.partition(b"\n")
        # The JSON holds no tensor's bytes; the payload starts aligned.
        self.assertLess(len(header), 4096)
        self.assertEqual((len(header) + 1) % 64, 0)
        self.assertGreaterEqual(len(payload), 300 * 40 * 4)
        body = sidecar.decode(bytearray(data), "s")
        self.assertEqual(body["version"], 2)
        back = values.decode(body["values"]["opt"], None, body["tensors"])
        self.assertEqual(set(back), set(opt_state))
        for key, t in opt_state.items():
            self.assertEqual(back[key].dtype, t.dtype, key)
            self.assertTrue(torch.equal(back[key], t), key)
        # Re-encoded as read (an amendment): the same bytes.
        self.assertEqual(sidecar.encode(body), data)

    def test_a_damaged_payload_is_refused(self):
        from detc_runtime import sidecar, values
        tensors = []
        encoded = values.encode(torch.arange(1000.0), "t", tensors)
        data = sidecar.encode(self._body({"t": encoded}, tensors))
        flipped = bytearray(data)
        flipped[-5] ^= 1
        with self.assertRaisesRegex(sidecar.SidecarError,
                                    "does not match its hash"):
            sidecar.decode(flipped, "s")
        with self.assertRaisesRegex(sidecar.SidecarError, "torn or corrupt"):
            sidecar.decode(data[:-64], "s")
        # A table that claims more than the tensor's bytes.
        body = sidecar.decode(data, "s")
        header = json.loads(data.partition(b"\n")[0])
        header["payload"]["tensors"][0]["shape"] = [2000]
        del header["body_sha256"]
        rehashed = sidecar._canonical(dict(
            header, body_sha256=hashlib.sha256(
                sidecar._canonical(header)).hexdigest()))
        with self.assertRaisesRegex(sidecar.SidecarError, "not valid"):
            sidecar.decode(rehashed + b"\n" + data.partition(b"\n")[2], "s")
        self.assertEqual(len(body["tensors"]), 1)

    def test_a_version_1_sidecar_is_still_read(self):
        from detc_runtime import sidecar, values
        body = dict(self._body({"t": values.encode(torch.ones(3), "t")},
                               None), format=sidecar.FORMAT, version=1)
        del body["tensors"]
        old = sidecar._canonical(dict(
            body, body_sha256=hashlib.sha256(
                sidecar._canonical(body)).hexdigest())) + b"\n"
        read = sidecar.decode(old, "s")
        self.assertNotIn("tensors", read)
        self.assertTrue(torch.equal(values.decode(read["values"]["t"]),
                                    torch.ones(3)))


class RanksTest(unittest.TestCase):
    """A checkpoint one rank of a job writes (ranks.py); the 2-rank runs
    are e2e-ddp-resume's."""

    def _body(self, **job):
        fp = rt.fingerprint.capture(None)
        body = {"script_sha256": "", "checkpoint": {}, "site": 1,
                "instance": 1, "seeds": {"override": None,
                                         "generators": {"1": 5}},
                "loaders": {}, "values": {}, "fingerprint": fp}
        body.update(job)
        return body

    def test_a_jobs_sidecar_is_validated(self):
        from detc_runtime import sidecar
        record = {"seeds": {"override": None, "generators": {"1": 6}},
                  "decisions": {"3": "01"}, "values": {"best": "x"},
                  "fingerprint": rt.fingerprint.capture(None)}
        good = self._body(rank=0, world_size=2, ranks={"1": record})
        self.assertEqual(sidecar.decode(sidecar.encode(good), "s")["ranks"],
                         {"1": record})
        for bad in ({"rank": 2}, {"world_size": 1}, {"ranks": {"0": record}},
                    {"ranks": {"1": dict(record, seeds={})}},
                    {"ranks": {"1": dict(record, decisions={"3": "2"})}},
                    {"ranks": {"1": dict(record, own_values={"a": 1})}},
                    {"ranks": {"1": dict(record, own_values=[])}},
                    {"ranks": []}, {"rank": True}):
            with self.assertRaises(sidecar.SidecarError):
                sidecar.decode(sidecar.encode(dict(good, **bad)), "s")

    def test_outside_a_job_a_jobs_checkpoint_is_refused(self):
        from detc_runtime import ranks
        self.assertIsNone(ranks.world())
        plain = self._body()
        self.assertIs(ranks.for_this_rank(plain, "ck.pt"), plain)
        with self.assertRaises(SystemExit) as stop:
            ranks.for_this_rank(self._body(rank=0, world_size=2, ranks={}),
                                "ck.pt")
        self.assertEqual(stop.exception.code, 3)
        # outside a job nothing is published or gathered
        ranks.publish(1, 1, lambda: self.fail("no record outside a job"))
        self.assertEqual(ranks.gather(1, 1), {})

    def test_another_ranks_checkpoint_checks_the_state_it_holds(self):
        # Rank 1 resumes from rank 0's checkpoint with its own seeds and
        # generators, and the checkpoint's state check: the state's
        # digests are taken of the checkpoint as it loads, on every rank.
        from detc_runtime import ranks
        from detc_runtime import values
        record = {"seeds": {"override": None, "generators": {"1": 6}},
                  "decisions": {}, "values": {},
                  "fingerprint": rt.fingerprint.capture(None),
                  "own_values": {"loss": values.encode(0.25)}}
        body = self._body(rank=0, world_size=2, ranks={"1": record})
        body["values"] = {"loss": values.encode(0.5),
                          "buffer": values.encode([1, 2])}
        body["fingerprint"]["state_from"] = "checkpoint"
        world = ranks.world
        ranks.world = lambda: (1, 2)
        try:
            mine = ranks.for_this_rank(body, "ck.pt")
        finally:
            ranks.world = world
        self.assertEqual(mine["seeds"], record["seeds"])
        # Its own loss; the writer's value where it recorded none.
        self.assertEqual(mine["values"], {"loss": values.encode(0.25),
                                          "buffer": values.encode([1, 2])})
        self.assertIsNot(mine["fingerprint"], body["fingerprint"])
        self.assertTrue(rt.fingerprint.state_from_checkpoint(mine))

    def test_an_announcement_no_save_took_is_spent_at_the_restore(self):
        # `if rank == 0: torch.save(...)` on rank 1: the announcement before
        # the test is not taken by a later unannounced save elsewhere.
        saved = rt.REPLAY.announced, rt.REPLAY.counts
        rt.REPLAY.counts = {}
        try:
            rt.announce_checkpoint(7)
            self.assertEqual(rt.REPLAY.announced[:2], (7, 1))
            self.assertFalse(rt.restoring(7))
            self.assertIsNone(rt.REPLAY.announced)
        finally:
            rt.REPLAY.announced, rt.REPLAY.counts = saved


class TraceWriterTest(unittest.TestCase):
    def test_flush_returns_after_every_record_is_checked(self):
        from detc_runtime import trace
        seen = []

        class SlowChecker:
            def observe(self, record):
                import time
                time.sleep(0.01)
                seen.append(record["n"])

            def close(self):
                pass

        writer = trace._Writer(None, 1 << 20, SlowChecker())
        writer.start()
        for n in range(20):
            writer.put({"n": n})
        writer.flush()
        self.assertEqual(seen, list(range(20)))
        writer.close()

    def test_destroy_process_group_waits_for_the_writer(self):
        import torch.distributed as dist
        from detc_runtime import trace
        original = dist.destroy_process_group
        calls = []

        class Writer:
            def flush(self):
                calls.append("flush")

        def destroy(*args, **kwargs):
            calls.append("destroy")

        dist.destroy_process_group = destroy
        saved = trace.TRACE.writer
        try:
            trace.TRACE.writer = Writer()
            trace._flush_before_destroying_the_group()
            trace._flush_before_destroying_the_group()  # wraps once
            dist.destroy_process_group()
            self.assertEqual(calls, ["flush", "destroy"])
        finally:
            dist.destroy_process_group = original
            trace.TRACE.writer = saved

    def test_records_waiting_for_the_rank_are_bounded(self):
        """Without RANK, records wait for the rank (mp.spawn's processes
        learn it from init_process_group); a script that never fetches
        nor steps takes the environment's rank after _Writer.LIMIT
        records, and the file is named after it, with every record."""
        import tempfile
        from detc_runtime import trace
        saved = (trace.TRACE.deferred, trace.TRACE.held, trace.TRACE.writer,
                 trace.TRACE.directory, trace.TRACE.direct, trace.TRACE.rank,
                 trace.TRACE.pid)
        with tempfile.TemporaryDirectory() as d:
            try:
                trace.TRACE.deferred, trace.TRACE.held = True, 0
                trace.TRACE.directory, trace.TRACE.direct = d, None
                trace.TRACE.pid = os.getpid()
                trace.TRACE.writer = trace._Writer(None, 1 << 30,
                                                   deferred=True)
                trace.TRACE.writer.start()
                n = trace._Writer.LIMIT + 5
                for k in range(n):
                    trace._emit({"kind": "enter", "k": k, "rank": 0})
                self.assertFalse(trace.TRACE.deferred)
                trace.TRACE.writer.close()
                with open(os.path.join(d, "trace.rank0.jsonl")) as f:
                    self.assertEqual(sum(1 for _ in f), n)
            finally:
                (trace.TRACE.deferred, trace.TRACE.held, trace.TRACE.writer,
                 trace.TRACE.directory, trace.TRACE.direct, trace.TRACE.rank,
                 trace.TRACE.pid) = saved

    def test_state_lists_no_model_another_optimizer_steps(self):
        """A GAN: each optimizer's state record lists its own model's
        parameters (in_optimizer true) and no parameter of the model the
        other optimizer steps; a model no optimizer steps is listed with
        in_optimizer false (an optimizer built over the wrong model)."""
        import torch
        from detc_runtime import trace
        emitted = []
        saved = (trace.TRACE.models, trace.TRACE.params_key,
                 trace.TRACE.needs, trace.TRACE.direct, trace.TRACE.writer)
        real_emit = trace._emit
        try:
            trace._register_optimizers()
            trace._emit = emitted.append
            trace.TRACE.needs = trace.TRACE.direct = trace.TRACE.writer = None
            gen, disc, lost = (torch.nn.Linear(2, 2), torch.nn.Linear(2, 1),
                               torch.nn.Linear(2, 3))
            trace.TRACE.models = {id(m): m for m in (gen, disc, lost)}
            trace.TRACE.params_key = None
            opt_d = torch.optim.SGD(disc.parameters(), lr=0.1)
            opt_g = torch.optim.Adam(gen.parameters(), lr=0.1)
            for opt, own in ((opt_d, disc), (opt_g, gen)):
                emitted.clear()
                trace._state(opt)
                params = emitted[0]["params"]
                held = [e for e in params if e["in_optimizer"]]
                free = [e["name"] for e in params if not e["in_optimizer"]]
                self.assertEqual(len(held), len(list(own.parameters())))
                # Only the model no optimizer steps reads false.
                self.assertEqual(sorted(free), ["bias", "weight"])
                self.assertEqual(len(params), len(held) + 2)
        finally:
            trace._emit = real_emit
            (trace.TRACE.models, trace.TRACE.params_key, trace.TRACE.needs,
             trace.TRACE.direct, trace.TRACE.writer) = saved

    def test_parts_are_named_by_class_and_models_by_role(self):
        """`forward:layer` (a module a model class's method calls) is named
        by the class it gets inside a forward, a keyed dropout by its
        library class, and is the model when the training code calls the
        method itself; a model's records carry the loss it feeds."""
        import torch
        from detc_runtime import trace
        from detc_runtime.draws import KeyedDropout
        emitted = []
        saved = (trace.TRACE.needs, trace.TRACE.off, trace.TRACE.active)
        real_emit = trace._emit
        seen = []

        class Net(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = torch.nn.Linear(2, 2)
                self.drop = torch.nn.Dropout(0.0)

            def forward(self, x):
                h = trace.api(1, "forward", "forward:layer", self.fc)(x)
                return trace.api(2, "forward", "forward:layer", self.drop)(h)

            def predict(self, x):  # called by the training code
                return trace.api(3, "forward", "forward:layer", self.fc)(x)

        try:
            trace._emit = emitted.append
            trace.TRACE.needs, trace.TRACE.off, trace.TRACE.active = \
                None, False, 0
            net = Net()
            trace.api(4, "forward", "forward:model", net, feeds="nll")(
                torch.ones(1, 2))
            net.predict(torch.ones(1, 2))
            seen = [(r["kind"], r["api"], r.get("feeds")) for r in emitted]
        finally:
            trace._emit = real_emit
            (trace.TRACE.needs, trace.TRACE.off, trace.TRACE.active) = saved
        self.assertEqual(seen, [
            ("enter", "forward:model", "nll"),
            ("enter", "forward:layer.Linear", None),
            ("exit", "forward:layer.Linear", None),
            ("enter", "forward:layer.Dropout", None),
            ("exit", "forward:layer.Dropout", None),
            ("exit", "forward:model", "nll"),
            ("enter", "forward:model", None),
            ("exit", "forward:model", None)])
        self.assertEqual(trace._part_api(KeyedDropout.__new__(KeyedDropout)),
                         "forward:layer.Dropout")
        # Functions called as parts keep their own names (never cached by
        # their type, which every function shares).
        self.assertEqual(trace._part_api(torch.nn.functional.relu),
                         "forward:layer.relu")
        self.assertEqual(trace._part_api(torch.nn.parallel.data_parallel),
                         "forward:layer.data_parallel")


if __name__ == "__main__":
    unittest.main()


def _keep_attributes(test, obj, *names):
    """Puts `obj`'s attributes `names` back as they are now once `test`
    ends (the runtime's state a test changes)."""
    for name in names:
        test.addCleanup(setattr, obj, name, getattr(obj, name))


class RecordedValuesTest(unittest.TestCase):
    """Clock reads in code fast-forward runs (`timestamp =
    datetime.now().strftime(...)` naming a run's folder): logged by the
    run, given back in order by fast-forward (recorded_values.py)."""

    def setUp(self):
        from detc_runtime.replay import REPLAY
        _keep_attributes(self, REPLAY, "recorded", "recorded_taken",
                         "target", "ff")
        REPLAY.recorded, REPLAY.recorded_taken = {}, {}

    def test_every_kind_survives_the_sidecars_json(self):
        import datetime
        import json
        import time
        import uuid
        from detc_runtime import recorded_values as rv
        for v in (time.time(), time.time_ns(), datetime.datetime.now(),
                  datetime.datetime.now(datetime.timezone.utc),
                  datetime.date.today(), time.localtime(), time.gmtime(),
                  time.ctime(), uuid.uuid4(), os.getpid()):
            logged = json.loads(json.dumps(rv.encode(v)))
            self.assertTrue(rv.valid(logged), logged)
            self.assertEqual(rv.decode(logged), v)
            self.assertIs(type(rv.decode(logged)), type(v))
        self.assertIsNone(rv.encode(object()))
        for bad in ({"int": True}, {"float": 1}, {"str": 3},
                    {"datetime": "yesterday"}, {"int": 1, "str": "x"},
                    {"struct_time": [1] * 8, "zone": None, "gmtoff": None},
                    {"eval": "1"}, ["int", 1]):
            self.assertFalse(rv.valid(bad), bad)
            with self.assertRaises(ValueError):
                rv.decode(bad)

    def test_logged_then_given_back_in_order(self):
        import datetime
        from detc_runtime import replay
        reads = iter([datetime.datetime(2026, 1, 2, 3, 4, 5, 678),
                      datetime.datetime(2027, 1, 1), object()])
        now = replay.recorded(7, lambda: next(reads))
        first, second, third = now(), now(), now()
        self.assertEqual(replay.REPLAY.recorded[7],
                         [{"datetime": "2026-01-02T03:04:05.000678"},
                          {"datetime": "2027-01-01T00:00:00"}, None])
        # A resume: fast-forward gives the checkpointed run's values, a
        # value the log could not hold is read anew, and past the log
        # the clock is read.
        replay.REPLAY.target = {"recorded": {"7": replay.REPLAY.recorded[7]}}
        replay.REPLAY.recorded, replay.REPLAY.ff = {}, True
        fresh = object()
        again = replay.recorded(7, lambda: fresh)
        self.assertEqual([again(), again()], [first, second])
        self.assertIs(again(), fresh)
        self.assertIs(again(), fresh)
        self.assertEqual(len(replay.REPLAY.recorded[7]), 4)

    def test_a_restart_heading_for_its_hint_reads_the_hints_values(self):
        from detc_runtime import hints, replay
        _keep_attributes(self, hints.HINT, "entering", "target")
        hints.HINT.entering = 3
        hints.HINT.target = {"recorded": {"7": [{"float": 2.5}]}}
        now = replay.recorded(7, lambda: 9.0)
        self.assertEqual(now(), 2.5)
        self.assertEqual(now(), 9.0)  # past the log
        hints.HINT.entering = None  # the restart has its state back
        replay.REPLAY.recorded_taken = {}
        self.assertEqual(now(), 9.0)
        self.assertEqual(replay.REPLAY.recorded[7],
                         [{"float": 2.5}, {"float": 9.0}, {"float": 9.0}])


class LoggedDecisionsTest(unittest.TestCase):
    """The decisions of a test fast-forward cannot evaluate (an `if acc >
    best_acc:` around a save): logged by the run, taken back in order by
    fast-forward, which stops with exit 3 past the end of the log."""

    def setUp(self):
        from detc_runtime.replay import REPLAY
        _keep_attributes(self, REPLAY, "decisions", "decided", "target")
        _keep_attributes(self, STATE, "failed")
        REPLAY.decisions, REPLAY.decided = {}, {}

    def test_logged_then_taken_back(self):
        from detc_runtime import replay
        self.assertIs(replay.decide(4, torch.tensor(0.7) > 0.5), True)
        self.assertIs(replay.decide(4, 0), False)
        self.assertIs(replay.decide(9, [1]), True)
        self.assertEqual(replay.decisions_made(), {"4": "10", "9": "1"})
        replay.REPLAY.target = {"decisions": replay.decisions_made()}
        replay.REPLAY.decisions = {}
        self.assertEqual([replay.decision(4), replay.decision(4)],
                         [True, False])
        # What fast-forward took is logged again: later sidecars hold it.
        self.assertEqual(replay.decisions_made(), {"4": "10"})
        with self.assertRaises(SystemExit) as stop:
            replay.decision(4)
        self.assertEqual(stop.exception.code, 3)
        with self.assertRaises(SystemExit) as stop:
            replay.decision(5)
        self.assertEqual(stop.exception.code, 3)

"""Keyed data loading: samplers whose order is a function of (seed, site,
epoch), example keys that travel with every index and batch.

`keyed_loader(site, DataLoader)` builds the user's DataLoader with its
sampler replaced by a keyed one. Each index it hands the dataset is an
`ExampleKey`: an int (so `data[index]` works unchanged) that also carries the
epoch, so `__getitem__` can draw from the example's stream in any worker.
Iterating the loader sets the current batch's example keys for the keyed
draws of the training loop (the batch order is a pure function of the
epoch, so the keys are recomputed in the main process, not shipped back).
"""
import array
import collections
import hashlib
import inspect
import itertools
import os
import sys
import weakref
import zlib

import numpy as np
import torch
from torch.utils.data import (BatchSampler, DataLoader, DistributedSampler,
                              IterableDataset, RandomSampler,
                              SequentialSampler, Sampler)

from . import _core, continuation, hints, module_globals, values
from ._state import MASK64, NO_EPOCH, STATE, KeyContext, warn_once
from .replay import (REPLAY, check_loop_edited, check_not_stale,
                     check_until, fast_forward_progress, note_batch,
                     placeholder, user_frames)
from .scope import ScopedDataset, reseed_library, restore_states


class ExampleKey(int):
    """A dataset index that knows its epoch."""

    def __new__(cls, index, epoch):
        key = int.__new__(cls, index)
        key.epoch = epoch
        return key

    def __reduce__(self):
        return (ExampleKey, (int(self), self.epoch))


class _EpochSampler(Sampler):
    """Shared epoch bookkeeping. The loader begins an epoch per iteration
    (unless the script calls set_epoch itself, DistributedSampler style);
    resume() makes the next epoch a given one, starting at a given sample.
    Iterating never changes the state."""

    def __init__(self):
        self.epoch = -1
        self.start = 0
        self._explicit = False
        self._resumed = False
        # Under a loader that keeps one iterator for all epochs (yolov5's
        # InfiniteDataLoader repeats its batch sampler): each pass over the
        # sampler is the next epoch, whenever its workers ask for it (they
        # run ahead of the loop), not when the loop starts one.
        self.self_counting = False

    def begin_epoch(self):
        self._begun = True
        if self.self_counting:
            return
        if self._resumed:
            self._resumed = False
            return
        self.start = 0
        if not self._explicit:
            self.epoch += 1

    def set_epoch(self, epoch):
        self._explicit = True
        if not self._resumed:
            self.epoch = int(epoch)

    def resume(self, epoch, position):
        """The next epoch is `epoch` and starts at sample `position`."""
        self.epoch, self.start = int(epoch), int(position)
        self._resumed = True

    def _indices(self, epoch):
        raise NotImplementedError

    def __iter__(self):
        if not getattr(self, "_begun", False) and not self.self_counting:
            # Iterated, but never by a keyed loader: a loader detc did not
            # key took this sampler (a library rebuilt the script's loader
            # where no key_imported_loaders reached it).
            warn_once(("foreign", id(self)), "a DataLoader detc did not key "
                      "iterates the keyed sampler of the loader at site %s "
                      "(a library rebuilt it?): its examples draw without "
                      "example scopes and its epochs do not advance, so the "
                      "run is not deterministic" % getattr(self, "site", "?"))
        start = self.start
        if self.self_counting:
            self.epoch += 1
            self.start = 0  # a resume's offset is its first pass's only
        epoch = max(self.epoch, 0)
        key = self._key
        for item in self._order(epoch, start):
            yield key(item, epoch)

    @staticmethod
    def _key(index, epoch):
        return ExampleKey(index, epoch)

    def _order(self, epoch, start):
        """The indices of `epoch` from its `start`-th on."""
        order = self._indices(epoch)
        if isinstance(order, np.ndarray):
            order = order.tolist()  # Python ints, converted in one go
        if isinstance(order, (list, range)):
            return order[start:]
        return itertools.islice(order, start, None)


class KeyedSampler(_EpochSampler):
    """range(n), shuffled by the permutation keyed by (seed, site, epoch)."""

    def __init__(self, n, shuffle, seed, site):
        super().__init__()
        self.n, self.shuffle, self.seed, self.site = n, shuffle, seed, site

    def _indices(self, epoch):
        if not self.shuffle:
            return range(self.n)
        return _core.permutation(self.n, self.seed, self.site, epoch)

    def __len__(self):
        return self.n


class KeyedDistributedSampler(_EpochSampler):
    """DistributedSampler's sharding of the same keyed permutation: every
    rank computes the epoch's permutation, pads (or drops) to a multiple of
    the world size and takes every num_replicas-th index from its rank."""

    def __init__(self, n, num_replicas, rank, shuffle, drop_last, seed, site):
        super().__init__()
        self.n, self.num_replicas, self.rank = n, num_replicas, rank
        self.shuffle, self.drop_last = shuffle, drop_last
        self.seed, self.site = seed, site
        if drop_last and n % num_replicas:
            self.num_samples = n // num_replicas
        else:
            self.num_samples = -(-n // num_replicas)
        self.total_size = self.num_samples * num_replicas

    def follow(self, origin):
        """Take the epoch from the script's own DistributedSampler, on which
        the script calls set_epoch (this one replaced it in the loader)."""
        self.origin = origin
        self._explicit = True
        self.epoch = origin.epoch

    def begin_epoch(self):
        origin = getattr(self, "origin", None)
        if origin is not None and not self._resumed:
            self.epoch = origin.epoch
        super().begin_epoch()

    def _indices(self, epoch):
        if self.shuffle:
            order = _core.permutation(self.n, self.seed, self.site, epoch)
        else:
            order = np.arange(self.n, dtype=np.int64)
        if self.total_size > len(order):
            reps = -(-self.total_size // len(order))
            order = np.tile(order, reps)
        order = order[:self.total_size]
        return order[self.rank:self.total_size:self.num_replicas]

    def __len__(self):
        return self.num_samples


# The global generators a custom sampler may draw its order from.
_GLOBALS = ("torch", "numpy", "random")
# The end of an order (WrappedSampler._take).
_END = object()


class _OrderDigest:
    """What a custom sampler has yielded in an epoch, in order: how many
    indices, and a digest of them (8-byte little-endian words, so the
    digest does not depend on how they were taken: one by one in the
    checkpointed run, in one go at the restart)."""

    __slots__ = ("count", "_hash", "_pending")

    def __init__(self):
        self.count = 0
        self._hash = hashlib.blake2b(digest_size=8)
        self._pending = array.array("q")

    def add(self, index):
        self._pending.append(index)
        self.count += 1
        if len(self._pending) >= 4096:
            self._flush()

    def _flush(self):
        if self._pending:
            if sys.byteorder != "little":  # as global_generators does
                self._pending.byteswap()
            self._hash.update(self._pending.tobytes())
            del self._pending[:]

    def hexdigest(self):
        self._flush()
        return self._hash.hexdigest()

    def copy(self):
        self._flush()
        other = _OrderDigest()
        other.count, other._hash = self.count, self._hash.copy()
        return other


class WrappedSampler(_EpochSampler):
    """A sampler detc cannot key (a custom one): its indices, in its order,
    as ExampleKeys. Deterministic iff the custom sampler is."""

    what = "sampler"  # the loader's argument, for messages

    def __init__(self, base, site=None):
        super().__init__()
        self.base, self.site = base, site
        if hasattr(base, "set_epoch"):
            self.set_epoch = self._forward_set_epoch

    def _forward_set_epoch(self, epoch):
        _EpochSampler.set_epoch(self, epoch)
        self.base.set_epoch(epoch)

    # What an epoch's order comes from (`order_origin`): the global
    # generators' states and the sampler's own generator's as the epoch's
    # iteration starts (RandomSampler draws its seed from torch's, or uses
    # its own; a script's sampler may draw from numpy's or random's, at the
    # start or index by index). `yielded`: (epoch, _OrderDigest) of the
    # indices handed out so far. A checkpoint saves both with the loader's
    # position (KeyedDataLoader._detc_origin); a restart there (`replay`)
    # makes the order again and checks it is the same.
    order_origin = None
    yielded = None
    _replayed = None

    def _own_generator(self):
        gen = getattr(self.base, "generator", None)
        return gen if isinstance(gen, torch.Generator) else None

    def replay(self, origin, epoch, samples):
        """Makes epoch `epoch`'s order again from `origin` (a checkpoint's
        _detc_origin) for an iteration starting at index `samples`.
        Every index the checkpointed run had taken from the sampler
        (`drawn`: those the loop took, the batch it was in, those workers
        had been sent) is drawn again with the generators as the epoch
        started, so a sampler drawing index by index from a global
        generator gives them again; the generators are then set back, and
        later indices are drawn from what the restore sets them to, as in
        the checkpointed run. False when the indices drawn again are not
        the checkpointed run's (their count and digest): the sampler draws
        from something else too."""
        own = self._own_generator()
        now = {lib: values.generator_state(lib) for lib in _GLOBALS}
        for lib in _GLOBALS:
            values.set_generator_state(lib, origin[lib])
        if own is not None and origin["own"] is not None:
            own.set_state(origin["own"])
        order = iter(self.base)
        digest = _OrderDigest()
        drawn = origin.get("drawn")
        skip = samples
        try:
            if drawn is None:
                # Written by an earlier detc: its first item (a seed drawn
                # as the iteration starts) from the origin, unchecked.
                ahead = list(itertools.islice(order, 1))
            else:
                self._take(order, samples, digest)
                skip = 0
                ahead = []
                self._take(order, max(int(drawn) - samples, 0), None, ahead)
        finally:
            for lib in _GLOBALS:
                values.set_generator_state(lib, now[lib])
        rest = itertools.chain(ahead, order)
        self._take(rest, skip, digest)
        if drawn is not None:
            check = digest.copy()
            for item in ahead:
                self._add(check, item)
            if check.count != int(drawn) or \
                    check.hexdigest() != origin.get("digest"):
                return False
        self.order_origin = {k: v for k, v in origin.items()
                             if k not in ("drawn", "digest")}
        self._replayed = (epoch, digest, rest)
        return True

    def _order(self, epoch, start):
        replayed, self._replayed = self._replayed, None
        if replayed is not None and replayed[0] == epoch:
            # Made again by replay(), which skipped the first indices.
            _, digest, order = replayed
        else:
            # As it comes: minGPT's RandomSampler(replacement=True,
            # num_samples=int(1e10)) is an endless stream, not a list.
            own = self._own_generator()
            self.order_origin = dict(
                {lib: values.generator_state(lib) for lib in _GLOBALS},
                epoch=epoch,
                own=own.get_state() if own is not None else None)
            digest = _OrderDigest()
            order = iter(self.base)
            self._take(order, start, digest)
        self.yielded = (epoch, digest)
        return self._digested(order, digest)

    # The items of the order: indices here, lists of them for a batch
    # sampler (WrappedBatchSampler). Positions count indices.
    def _add(self, digest, index):
        try:
            digest.add(int(index))  # what its ExampleKey holds
        except (TypeError, ValueError, OverflowError):
            self._not_indices(index)

    def _not_indices(self, item):
        from ._state import fail
        fail("error: the %s of the DataLoader at site %s gave %r, not %s: "
             "detc cannot key its examples (please report it with the "
             "script)" % (self.what, self.site, item, "a dataset index"
                          if self.what == "sampler" else
                          "a list of dataset indices"), 3)

    @staticmethod
    def _size(index):
        return 1

    def _take(self, order, count, digest, into=None):
        """Takes items from `order` until they hold `count` indices, into
        `digest` and the list `into`."""
        taken = 0
        while taken < count:
            item = next(order, _END)
            if item is _END:
                return
            if digest is not None:
                self._add(digest, item)
            if into is not None:
                into.append(item)
            taken += self._size(item)

    def _digested(self, order, digest):
        add = self._add
        for item in order:
            add(digest, item)
            yield item

    def __len__(self):
        return len(self.base)


class WrappedBatchSampler(WrappedSampler):
    """A batch sampler detc cannot key (a custom one: grouping by aspect
    ratio, bucketing by length): its batches, in its order, as lists of
    ExampleKeys. Its order is made again at a restart as a custom
    sampler's is (WrappedSampler), batch by batch."""

    what = "batch_sampler"

    def _add(self, digest, batch):
        try:
            for index in batch:
                digest.add(int(index))
        except (TypeError, ValueError, OverflowError):
            self._not_indices(batch)

    @staticmethod
    def _size(batch):
        return len(batch)

    def _key(self, batch, epoch):
        try:
            return [ExampleKey(i, epoch) for i in batch]
        except (TypeError, ValueError):
            self._not_indices(batch)


class _WorkerInit:
    """worker_init_fn: give the worker the main process's runtime state (a
    spawned worker starts without it), then run the script's own init."""

    def __init__(self, snapshot, user):
        self.snapshot, self.user = snapshot, user

    def __call__(self, worker_id):
        STATE.install(self.snapshot)
        if self.user is not None:
            self.user(worker_id)


def _private_seed(site):
    words = _core.stream_words(STATE.seed_of(0), site, NO_EPOCH, 0xFFFFFFFF,
                               0, 2)
    return words[0] | words[1] << 32


def _draw_seed(generator):
    """One 64-bit draw from the loader's generator (or torch's global one),
    the way RandomSampler seeds itself: the script's seed calls still
    decide the shuffle."""
    value = torch.empty((), dtype=torch.int64).random_(generator=generator)
    return int(value.item()) & MASK64


class KeyedDataLoader(DataLoader):
    def __iter__(self):
        check_not_stale(self._detc_site)
        armed = self.__dict__.pop("_detc_armed", None)
        if armed is not None:
            # A restart of a generator that repeats this loader: its first
            # iteration starts where the checkpointed one stood
            # (values.GeneratorAt).
            return self._detc_iter_at(**armed)
        sampler = self._detc_sampler
        if not REPLAY.ff:
            # Where a run that wrote a checkpoint goes on, or where the
            # script's own resume continues it (continuation.py): before
            # the pass changes the loader's position.
            frames = user_frames(sys._getframe(1))
            if frames:
                continuation.pass_begins(self, frames)
        sampler.begin_epoch()
        self.worker_init_fn = _WorkerInit(STATE.snapshot(),
                                          self._detc_user_init)
        epoch = max(sampler.epoch, 0)
        if sampler.self_counting:
            # Its sampler's passes run ahead of the loop (workers load
            # ahead): the loop's epoch is how often it began one.
            self._detc_loop_epochs += 1
            epoch = self._detc_loop_epochs
        # A loop fast-forward runs in full (in setup code, or in a function
        # also called outside the training loop: replay.real_batches)
        # loads its batches for real.
        real = self.__dict__.pop("_detc_real_next", False)
        if REPLAY.ff and not real:
            check_loop_edited()
            it = (_FastForwardRepeating if sampler.self_counting
                  else _FastForwardBatches)(self, epoch)
        else:
            fetched = self._detc_fetched_queue()  # before the base iterator
            # The base iterator draws its workers' seed from the generator:
            # its state before is where a restart makes this one again.
            start = (None if sampler.self_counting else
                     self.generator.get_state())
            it = _KeyedBatches(self._detc_base_iter(), fetched, epoch,
                               loader=self, start=start)
        REPLAY.loaders[self._detc_site] = it
        # The iteration a generator repeating this loader is in
        # (values.generator_at). Weak: the iterator holds the loader, and a
        # loader and its last iterator in a cycle left that iterator (and
        # its workers) to the cycle collector, whose finalizers close the
        # workers' index queues before DataLoader's shutdown can tell the
        # workers to stop: 5 s per worker, each time a loader was dropped
        # with persistent workers or mid-epoch.
        self._detc_latest = weakref.ref(it)
        return it

    # The state a checkpoint at a hint saves when the loops iterate this
    # loader (hints.py): its epoch and the generator its worker seeds come
    # from. Positions within an epoch are the loop's, saved separately.
    def state_dict(self):
        sampler = self._detc_sampler
        return {"epoch": int(sampler.epoch),
                "generator": self.generator.get_state()}

    def load_state_dict(self, state):
        self._detc_sampler.epoch = int(state["epoch"])
        self.generator.set_state(state["generator"])
        # Its position between passes is set: fast-forward need not have
        # reached it (replay._check_positions).
        REPLAY.stale_loaders.pop(self._detc_site, None)

    def _get_iterator(self):
        # The iterator (and the workers it starts) read `self.dataset` once:
        # they get the scoped view; the script keeps seeing its dataset.
        real = self.dataset
        object.__setattr__(self, "dataset",
                           ScopedDataset(real, self._detc_scope_site,
                                         self._detc_gens,
                                         self._detc_scope_attrs))
        try:
            return super()._get_iterator()
        finally:
            object.__setattr__(self, "dataset", real)

    def _detc_fetched_queue(self):
        # One queue per loader, emptied per epoch: with persistent workers
        # DataLoader keeps its first iterator (and our recorder) for good.
        # A repeating loader's iterator runs ahead into the next epoch: what
        # it recorded there is the next epoch's, kept.
        if getattr(self, "_detc_fetched", None) is None:
            self._detc_fetched = collections.deque()
        if not self._detc_sampler.self_counting:
            self._detc_fetched.clear()
        return self._detc_fetched

    def _detc_base_iter(self):
        return super().__iter__()

    def _detc_origin(self, epoch):
        """What the order of `epoch` came from, when a custom sampler
        makes it (WrappedSampler.order_origin), for a checkpoint; else
        None."""
        sampler = self._detc_sampler
        origin = getattr(sampler, "order_origin", None)
        if origin is None or int(origin["epoch"]) != int(epoch):
            return None
        yielded = getattr(sampler, "yielded", None)
        if yielded is not None and yielded[0] == origin["epoch"]:
            # What the loop has taken from it so far: the restart checks
            # it makes the same indices again.
            origin = dict(origin, drawn=yielded[1].count,
                          digest=yielded[1].hexdigest())
        return origin

    def _detc_iter_at(self, epoch, step, samples, start, shape=None,
                      origin=None):
        """An iterator over this loader standing where one made when the
        loader's generator had state `start` stood after `step` batches
        (`samples` examples) of `epoch`: a restart's. `shape`: the
        loader's (hints.loader_shape) in the checkpointed run, which it
        must still have."""
        for key, then in sorted((shape or {}).items()):
            now = hints.loader_shape(self).get(key)
            if now is not None and now != then:
                raise values.Mismatch(
                    "the DataLoader at site %s has %s %d now, %d in the "
                    "checkpointed run: its order and batches differ, and "
                    "the run cannot continue where it stopped" % (
                        self._detc_site, key.replace("_", " "), now, then))
        sampler = self._detc_sampler
        if isinstance(sampler, WrappedSampler) and origin is not None:
            if not sampler.replay(origin, epoch, samples):
                raise values.Mismatch(_order_not_made_again(
                    self._detc_site, sampler, _REPLAYED_OTHERWISE % (
                        epoch, step)))
        elif isinstance(sampler, WrappedSampler) and not isinstance(
                sampler.base, torch.utils.data.SequentialSampler):
            # A custom sampler's order may come from its own random state
            # (RandomSampler draws its seed when its iteration starts):
            # starting it again here without what it started from would
            # give other batches, silently.
            raise values.Mismatch(_order_not_made_again(
                self._detc_site, sampler, "a restart cannot make the "
                "checkpointed run's order again at epoch %d, batch %d" % (
                    epoch, step)))
        self.generator.set_state(start)
        sampler.resume(epoch, samples)
        it = iter(self)
        it.step, it.samples = step, samples
        return it

    def _detc_continue(self, epoch, step, samples):
        """The rest of loop epoch `epoch`, after its first `step` batches
        (`samples` examples), of a loader that keeps one iterator for all
        epochs: its iterator yields a whole loop epoch, and already stands
        at the batch after them (_position_for_restart)."""
        self._detc_loop_epochs = epoch
        rest = itertools.islice(self._detc_base_iter(),
                                max(len(self) - step, 0))
        it = _KeyedBatches(rest, self._detc_fetched_queue(), epoch, step,
                           samples, loader=self)
        REPLAY.loaders[self._detc_site] = it
        return it

    @property
    def _index_sampler(self):
        # What DataLoader's iterators draw batches (or single indices) from;
        # each is recorded as it is handed out, so the batch that comes
        # back (in order, also from workers) is paired with its keys
        # without iterating the sampler a second time.
        return _RecordingIndices(super()._index_sampler, self._auto_collation,
                                 getattr(self, "_detc_fetched", None))


class _RecordingIndices:
    def __init__(self, base, batched, record):
        self.base, self.batched, self.record = base, batched, record

    def __len__(self):
        return len(self.base)

    def __iter__(self):
        record = self.record
        if record is None:
            return iter(self.base)
        if self.batched:
            return self._batches(record)
        return self._singles(record)

    def _batches(self, record):
        for batch in self.base:
            record.append(batch)
            yield batch

    def _singles(self, record):
        for index in self.base:
            record.append((index,))
            yield index


def _enter_batch_scope(loader, epoch, keys):
    """The batch scope of `loader` (keyed_loader's batch_scope): reseeds
    the global generators from the batch's stream."""
    site = getattr(loader, "_detc_batch_scope", None)
    if site is None or not len(keys):
        return
    first = int(keys[0])
    for slot, (gen, library) in enumerate(loader._detc_gens):
        reseed_library(library, _core.stream_words(
            STATE.seed_of(gen), site, epoch, first, 2 * slot, 2))


class LoaderPosition:
    """Where an iterator over a keyed loader stands: the loader's site, the
    epoch, the batches (`step`) and examples (`samples`) it has handed
    out, and the state of the loader's generator when it was made (its
    workers' seed comes from there). A checkpoint saves it for an iterator
    the script keeps across its loops (`it = iter(loader)`, then
    `next(it)` per step: values.py), with the loader's dataset length and
    batch size (`shape`); the restart makes the iterator again there
    (KeyedDataLoader._detc_iter_at)."""

    __slots__ = ("site", "epoch", "step", "samples", "start", "shape",
                 "origin")

    def __init__(self, site, epoch, step, samples, start, shape,
                 origin=None):
        self.site, self.epoch = site, epoch
        self.step, self.samples, self.start = step, samples, start
        self.shape, self.origin = shape, origin

    def _detc_position(self):
        return self


def _position_of(it, start):
    loader = it.loader
    if start is None or getattr(loader, "_detc_pass", None) is not None:
        raise values.UnsavableValue(
            "an iterator over the DataLoader at site %s, which keeps one "
            "iterator for all epochs, cannot be saved by its position" %
            getattr(loader, "_detc_site", "?"))
    return LoaderPosition(loader._detc_site, it.epoch, it.step, it.samples,
                          start, hints.loader_shape(loader),
                          loader._detc_origin(it.epoch))


class _KeyedBatches:
    # Batches loaded for real (also in fast-forward: real_batches), unlike
    # _FastForwardBatches' placeholders (replay._check_positions).
    loaded = True

    def __init__(self, base, fetched, epoch, step=0, samples=0, loader=None,
                 start=None):
        self.base, self.fetched, self.epoch = base, fetched, epoch
        self.step, self.samples = step, samples
        self.loader = loader
        self.start = start

    def __iter__(self):
        return self

    def _detc_position(self):
        return _position_of(self, self.start)

    def __len__(self):
        return len(self.base)

    def __next__(self):
        check_until(self.epoch, self.step)
        # With num_workers=0 the examples' scopes run here, inside next():
        # the global generator states they replace are saved once and
        # restored after the batch instead of around every example.
        outer, STATE.fetch_guard = STATE.fetch_guard, {}
        try:
            data = next(self.base)
        except StopIteration:
            STATE.batch = None
            raise
        except Exception:
            # The fetch of this batch failed (a dataset's __getitem__, a
            # worker): DataLoader's iterator has moved past it, and so do
            # its keys and step — a loop that goes on (a recovery,
            # vaccine.fetches) keys the next batch as its own, as if this
            # one had been fetched and left out.
            STATE.batch = None
            if self.fetched:
                self.samples += len(self.fetched.popleft())
                self.step += 1
            raise
        finally:
            guard, STATE.fetch_guard = STATE.fetch_guard, outer
            restore_states(guard.items())
        keys = self.fetched.popleft()
        # A repeating loader's batch is of the sampler pass it came from.
        epoch = getattr(keys[0], "epoch", self.epoch) if len(keys) else \
            self.epoch
        passes = getattr(self.loader, "_detc_pass", None)
        if passes is not None:
            passes.took(epoch, len(keys))
        STATE.batch = KeyContext(epoch, keys, self.step)
        _enter_batch_scope(self.loader, epoch, keys)
        note_batch(self.epoch, self.step)
        self.step += 1
        self.samples += len(keys)
        return data


def _skip_batch(it, epoch, keys):
    """Fast-forward's placeholder for the batch of `keys` (drawn in
    `epoch`) of iteration `it` over a keyed loader: the batch's keys are
    current for the statements fast-forward re-runs; no data is loaded."""
    STATE.batch = KeyContext(epoch, keys, it.step)
    _enter_batch_scope(it.loader, epoch, keys)
    it.samples += len(keys)
    it.step += 1
    fast_forward_progress(it.loader._detc_site, it.epoch, it.step)
    return placeholder(getattr(it.loader, "_detc_arity", None))


class _FastForwardBatches:
    """An epoch of a keyed loader during fast-forward: placeholder batches,
    no data loaded, until fast-forward ends; then the rest of the epoch for
    real, starting at the sample where the checkpointed run was."""

    def __init__(self, loader, epoch):
        self.loader, self.epoch = loader, epoch
        self.step, self.samples = 0, 0
        self.batches = len(loader)
        self.real = None
        # The worker base seed DataLoader draws per epoch, drawn now as the
        # real iteration would (and redrawn if the epoch continues for real).
        self.seed_state = loader.generator.get_state()
        torch.empty((), dtype=torch.int64).random_(generator=loader.generator)
        # The keys of each skipped batch, from the keyed sampler (no data
        # loaded): statements fast-forward re-runs may draw per example.
        base = super(KeyedDataLoader, loader)._index_sampler
        self.indices = iter(base) if loader._auto_collation else (
            (i,) for i in base)

    def __iter__(self):
        return self

    def _detc_position(self):
        if self.real is not None:
            return self.real._detc_position()
        return _position_of(self, self.seed_state)

    def __len__(self):
        return self.batches

    def __next__(self):
        if self.real is None and not REPLAY.ff:
            self._continue_for_real()
        if self.real is not None:
            return next(self.real)
        keys = next(self.indices, None)
        if keys is None:
            STATE.batch = None
            raise StopIteration
        return _skip_batch(self, self.epoch, keys)

    def _continue_for_real(self):
        loader = self.loader
        sampler = loader._detc_sampler
        if isinstance(sampler, WrappedSampler):
            self._replay_order(sampler)
        sampler.start = self.samples
        loader.generator.set_state(self.seed_state)
        fetched = loader._detc_fetched_queue()
        self.real = _KeyedBatches(loader._detc_base_iter(), fetched,
                                  self.epoch, self.step, self.samples,
                                  loader=loader, start=self.seed_state)
        REPLAY.loaders[loader._detc_site] = self.real

    def _replay_order(self, sampler):
        """The rest of the epoch over a custom sampler, where fast-forward
        ends (at the checkpoint): its order made again from what the
        checkpointed run's started from (WrappedSampler.replay), not
        drawn anew from the generators as they are now (a sampler drawing
        index by index gave other batches, exit 0)."""
        from ._state import fail
        saved = REPLAY.target.get("loaders", {}).get(str(
            self.loader._detc_site)) or {}
        origin = saved.get("origin")
        if origin is not None and int(saved.get("epoch", -1)) == self.epoch:
            if sampler.replay(values.decode(origin), self.epoch,
                              self.samples):
                return
            why = _REPLAYED_OTHERWISE % (self.epoch, self.step)
        elif self.samples == 0 or isinstance(
                sampler.base, torch.utils.data.SequentialSampler):
            # Nothing of the epoch's order was taken yet (it is drawn from
            # the generators the restore sets), or it is fixed.
            return
        else:
            why = "the checkpoint does not say what its order came from"
        fail("%s: error: %s" % (REPLAY.checkpoint, _order_not_made_again(
            self.loader._detc_site, sampler, why)), 3)


_REPLAYED_OTHERWISE = (
    "made again from what epoch %d's order started from, its indices up to "
    "batch %d are not the checkpointed run's (the sampler draws from a "
    "generator other code draws from too, or from a state detc does not "
    "save)")


def _order_not_made_again(site, sampler, why):
    """Why a restart or resume over a custom sampler's loader stops."""
    return ("the DataLoader at site %s takes its order from a %s detc does "
            "not key (a %s): %s, and the run cannot continue where it "
            "stopped" % (site, sampler.what.replace("_", " "),
                         type(sampler.base).__name__, why))


class _PassPosition:
    """Where the loop over a loader that keeps one iterator for all epochs
    is in its sampler's passes: the pass (the keys' epoch) of the last batch
    it took and how many of that pass's samples it has taken. A checkpoint
    records it (the loop's epoch and step do not say it: the loop may leave
    an epoch early); a resume starts the sampler there."""

    def __init__(self, epoch=-1, offset=0):
        self.epoch, self.offset = epoch, offset

    def took(self, epoch, samples):
        if epoch != self.epoch:
            self.epoch, self.offset = epoch, 0
        self.offset += samples

    def state(self):
        return [self.epoch, self.offset]


class _FastForwardRepeating:
    """A loop epoch over a loader that keeps one iterator for all epochs,
    during fast-forward: placeholder batches, keyed as the sampler's passes
    would key them (computed here: the real sampler and the workers that
    load ahead start at the checkpoint's batch, `_position_for_resume`),
    then the rest of the loop epoch from the loader's own iterator."""

    def __init__(self, loader, epoch):
        self.loader, self.epoch = loader, epoch
        self.step, self.samples = 0, 0
        self.batches = len(loader)
        self.real = None

    def __iter__(self):
        return self

    def _detc_position(self):
        # Its loader keeps one iterator for all epochs: no position saves
        # it (_position_of says so).
        return _position_of(self, None)

    def __len__(self):
        return self.batches

    def __next__(self):
        if self.real is None and not REPLAY.ff:
            self.real = self.loader._detc_continue(self.epoch, self.step,
                                                   self.samples)
        if self.real is not None:
            return next(self.real)
        if self.step >= self.batches:
            STATE.batch = None
            raise StopIteration
        epoch, keys = self.loader._detc_simulated.next_batch()
        return _skip_batch(self, epoch, keys)


class _SimulatedPasses:
    """The batches a keyed sampler's passes give, without iterating it (it
    counts its passes): the keys of fast-forward's placeholder batches."""

    def __init__(self, loader):
        self.loader = loader
        self.epoch, self.order, self.at = -1, [], 0

    def next_batch(self):
        loader = self.loader
        size = loader.batch_size or 1
        while True:
            rest = len(self.order) - self.at
            if rest >= size or (rest > 0 and not loader.drop_last):
                break
            self.epoch += 1
            self.order = list(loader._detc_sampler._order(self.epoch, 0))
            self.at = 0
            if not self.order:
                raise StopIteration
        keys = [ExampleKey(i, self.epoch)
                for i in self.order[self.at:self.at + size]]
        self.at += len(keys)
        return self.epoch, keys


def _position_for_restart(loader, sampler, site, made):
    """A resumed or restarted run's loader that keeps one iterator for all
    epochs (made in its __init__, the workers loading ahead from there)
    starts it at the batch after the checkpoint's: the sampler's first pass
    is the checkpoint's, from the sample the loop had reached. `made`
    counts the loaders made at `site`: only the checkpoint's own is
    started there."""
    if REPLAY.ff:
        saved = REPLAY.target.get("loaders", {}).get(str(site))
    else:
        saved = hints.restart_loader(site)
    if saved is None:
        return  # the loop had not begun at the checkpoint
    where = saved.get("pass")
    if where is None or not isinstance(sampler, (KeyedSampler,
                                                 KeyedDistributedSampler)):
        from ._state import fail
        fail("error: cannot resume: the DataLoader at site %d is an "
             "instance of %s, which keeps one iterator for all epochs, and "
             "%s" % (site, type(loader).__name__[5:],
                     "its sampler is the script's own: detc cannot start "
                     "it at the checkpoint's batch" if where is not None else
                     "the checkpoint does not say where its sampler was "
                     "(written by an earlier detc)"), 3)
    if saved.get("made") != made:
        return  # an earlier loader of the site: it starts afresh, as then
    epoch, offset = where
    if epoch < 0:
        return  # no batch taken yet
    # An offset at the pass's end makes its first pass empty: the next
    # pass follows, as in the checkpointed run.
    sampler.epoch, sampler.start = epoch - 1, offset
    object.__setattr__(loader, "_detc_pass", _PassPosition(epoch, offset))


def _unbatch(bound):
    """A batch_sampler that is torch's own BatchSampler (what accelerate's
    prepare, and so Hugging Face's Trainer, rebuild a loader with) is its
    sampler, batch size and drop_last: keyed as those arguments would be.
    (A subclass or another batch sampler may group examples its own way:
    left alone.)"""
    args = bound.arguments
    batches = args.get("batch_sampler")
    if type(batches) is not BatchSampler:
        return
    args["batch_sampler"] = None
    args["sampler"] = batches.sampler
    args["batch_size"] = batches.batch_size
    args["drop_last"] = batches.drop_last


def _keyed_sampler(bound, dataset, site):
    args = bound.arguments
    sampler = args.get("sampler")
    if args.get("batch_sampler") is not None:
        return None
    if isinstance(sampler, _EpochSampler):
        # Already keyed: a keyed loader's sampler handed to a new loader.
        return sampler
    if isinstance(sampler, DistributedSampler):
        seed = STATE.override if STATE.override is not None else sampler.seed
        keyed = KeyedDistributedSampler(len(dataset), sampler.num_replicas,
                                        sampler.rank, sampler.shuffle,
                                        sampler.drop_last, seed & MASK64, site)
        keyed.follow(sampler)
        return keyed
    shuffle = bool(args.get("shuffle"))
    if isinstance(sampler, RandomSampler):
        if sampler.replacement or sampler._num_samples is not None:
            return WrappedSampler(sampler, site)
        shuffle = True
    elif isinstance(sampler, SequentialSampler):
        shuffle = False
    elif sampler is not None:
        return WrappedSampler(sampler, site)
    seed = 0
    if shuffle:
        seed = (STATE.override if STATE.override is not None else
                _draw_seed(args.get("generator")))
    return KeyedSampler(len(dataset), shuffle, seed, site)


# The global generators every example scope reseeds, when the transform
# names no generator ids for them (the ids select the seeds: 0 is the run's).
ALL_GLOBALS = ((0, "torch"), (0, "numpy"), (0, "random"))


def keyed_loader(site, loader_class=DataLoader, gens=ALL_GLOBALS,
                 scope_site=None, scope_attrs=(), batch_scope=None):
    """A constructor with DataLoader's signature that builds a
    KeyedDataLoader (or, for what cannot be keyed, the plain loader). Its
    examples are fetched in example scopes reseeding `gens` ((generator id,
    library) pairs) from streams of site `scope_site` (default: `site`;
    loaders over one dataset share it), and the generators the dataset
    holds at `scope_attrs` ((attribute path, generator id) pairs). With
    `batch_scope` (a site), every batch handed to the loop reseeds `gens`
    too, from (seed, batch_scope, epoch, the batch's first example key):
    draws from the global generators while the batch is processed — in a
    helper of an imported module (a TRADES loss, a mixup helper) — depend
    on the batch, not on the worker count or a resume."""
    def make(*args, **kwargs):
        # The class is the call's (`loader = DataLoader if w else
        # InfiniteDataLoader; loader(dataset, ...)`): known at the call.
        # (key_imported_loaders' DataLoader stands for torch's own; a
        # subclass of it, which inherits the attribute, is itself.)
        cls_called = loader_class.__dict__.get("_detc_original",
                                               loader_class)
        bound = _loader_arguments(cls_called).bind(None, *args, **kwargs)
        dataset = bound.arguments["dataset"]
        if isinstance(dataset, IterableDataset) or not hasattr(
                dataset, "__len__"):
            warn_once(("iterable", site), "the DataLoader at site %d reads "
                      "an iterable dataset; its examples have no index, so "
                      "it is not keyed" % site)
            return cls_called(*args, **kwargs)
        _unbatch(bound)
        sampler = _keyed_sampler(bound, dataset, site)
        batches = None
        if sampler is None:
            batches = bound.arguments.get("batch_sampler")
            if _repeats_batches(cls_called):
                warn_once(("batch_sampler", site), "the DataLoader at site "
                          "%d repeats a custom batch_sampler; it is not "
                          "keyed" % site)
                return cls_called(*args, **kwargs)
            sampler = WrappedBatchSampler(batches, site)
        options = dict(bound.arguments)
        options.pop("self")
        extra = options.pop("kwargs", {})
        options.update(extra)
        options.pop("shuffle", None)
        if batches is None:
            options["sampler"] = sampler
        else:
            options["batch_sampler"] = sampler
        user_init = options.pop("worker_init_fn", None)
        cls = cls_called if issubclass(cls_called, KeyedDataLoader) else (
            _keyed_class(cls_called))
        # DataLoader draws a worker base seed from its generator every epoch;
        # a private one, keyed by the site, keeps that out of the script's
        # generators (fast-forward then need not replay it there).
        options["generator"] = torch.Generator().manual_seed(_private_seed(
            site))
        # Set before the class's own __init__ runs: a subclass may start
        # iterating there (InfiniteDataLoader makes its one iterator, and
        # its workers, in __init__).
        options["worker_init_fn"] = _WorkerInit(STATE.snapshot(), user_init)
        loader = cls.__new__(cls)
        for name, value in (
                ("_detc_site", site), ("_detc_gens", tuple(gens)),
                ("_detc_scope_site", site if scope_site is None
                 else scope_site),
                ("_detc_scope_attrs", tuple(scope_attrs)),
                ("_detc_batch_scope", batch_scope),
                ("_detc_sampler", sampler), ("_detc_user_init", user_init),
                ("_detc_fetched", collections.deque())):
            object.__setattr__(loader, name, value)
        # A subclass that repeats its batch sampler forever (yolov5's
        # _RepeatSampler) starts its sampler's passes itself: the sampler
        # counts them (it is told before __init__ may start the iterator).
        sampler.self_counting = _repeats_batches(cls_called)
        if sampler.self_counting:
            made = REPLAY.made[site] = REPLAY.made.get(site, 0) + 1
            for name, value in (("_detc_pass", _PassPosition()),
                                ("_detc_made", made),
                                ("_detc_loop_epochs", -1),
                                ("_detc_simulated", _SimulatedPasses(loader))):
                object.__setattr__(loader, name, value)
            _position_for_restart(loader, sampler, site, made)
        loader.__init__(**options)
        values.LOADERS[site] = loader
        return loader

    return make


_LOADER_CLASSES = {DataLoader: KeyedDataLoader}


def _loader_arguments(loader_class):
    """The signature the call's arguments bind to: the class's __init__,
    or, where it only passes `*args, **kwargs` on (yolov5's
    InfiniteDataLoader), that of the nearest base that names `dataset`."""
    for cls in loader_class.__mro__:
        init = cls.__dict__.get("__init__")
        if init is None:
            continue
        signature = inspect.signature(init)
        if "dataset" in signature.parameters:
            return signature
    return inspect.signature(DataLoader.__init__)


def _repeats_batches(loader_class):
    """Whether a DataLoader subclass keeps one iterator across epochs:
    it defines its own __iter__ and sets `batch_sampler` itself (yolov5's
    InfiniteDataLoader, timm's MultiEpochsDataLoader wrap it in a sampler
    that repeats forever). Read from the class's source."""
    if loader_class is DataLoader or not issubclass(loader_class, DataLoader):
        return False
    for cls in loader_class.__mro__:
        if cls is DataLoader:
            return False
        if "__iter__" in cls.__dict__:
            try:
                source = inspect.getsource(cls)
            except (OSError, TypeError):
                return True  # cannot tell: a pass per sampler iteration
            return "batch_sampler" in source
    return False


def _keyed_class(loader_class):
    cls = _LOADER_CLASSES.get(loader_class)
    if cls is None:
        cls = type("Keyed" + loader_class.__name__,
                   (KeyedDataLoader, loader_class), {})
        _LOADER_CLASSES[loader_class] = cls
    return cls


def key_imported_loaders(site, gens=ALL_GLOBALS, scope_site=None,
                         batch_scope=None):
    """DataLoaders that modules the script imports construct (detc does not
    edit them): `torch.utils.data.DataLoader` becomes, where those modules
    look it up (also `from torch.utils.data import DataLoader` after this
    call), a subclass whose direct construction builds the keyed loader of
    `keyed_loader(site, ...)`. isinstance checks against it hold for every
    DataLoader. A subclass of it that a module defines (a project's
    InfiniteDataLoader, timm's MultiEpochsDataLoader) is keyed too, as its
    own keyed subclass (they constructed as before: unkeyed, and the
    transformed script's weights differed with the number of workers).
    Called by the transformed script's header, before the script imports
    its modules."""
    import torch.utils.data as package

    original = getattr(package.DataLoader, "_detc_original",
                       package.DataLoader)
    makers = {}
    runtime_dir = os.path.dirname(os.path.abspath(__file__))

    def construction_site():
        """A site of its own for each place the modules construct loaders
        (a training and a validation loader made by one helper): what the
        call is — its file's name, function and line — never the order or
        the number of constructions (a loader a helper builds again every
        epoch keeps its site, also where fast-forward skips a
        construction). Sharing one site, the two loaders' positions
        overwrote each other in the sidecar, and a resume whose
        fast-forward skipped the validation pass was refused
        (RepDistiller's get_cifar100_dataloaders)."""
        frame = sys._getframe(2)
        while frame is not None and frame.f_code.co_filename.startswith(
                runtime_dir):
            frame = frame.f_back
        if frame is None:
            return site
        code = frame.f_code
        where = "%s:%s:%d" % (os.path.basename(code.co_filename),
                              code.co_name, frame.f_lineno)
        return (site ^ zlib.crc32(where.encode())) | 0x80000000

    class _Meta(type(original)):
        def __call__(cls, *args, **kwargs):
            if cls is not patched and issubclass(cls, KeyedDataLoader):
                return super().__call__(*args, **kwargs)
            at = construction_site()
            maker = makers.get((cls, at))
            if maker is None:
                maker = makers[(cls, at)] = keyed_loader(
                    at, original if cls is patched else cls, gens,
                    scope_site, batch_scope=batch_scope)
            return maker(*args, **kwargs)

        def __instancecheck__(cls, obj):
            if cls is patched:
                return isinstance(obj, original)
            return super().__instancecheck__(obj)

    patched = _Meta("DataLoader", (original,), {
        "_detc_original": original, "__module__": original.__module__,
        "__qualname__": original.__qualname__})
    # Not in torch.utils.data.dataloader: DataLoader's own methods name the
    # class through that module's globals (super(DataLoader, self)). The
    # program's modules that import it from there get it rebound.
    package.DataLoader = patched
    module_globals.replace(original, patched)

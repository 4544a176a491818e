# Workers sharing a seed (a silent error the TrainCheck paper reproduces):
# a dataset holds its own numpy generator, made in __init__, and draws from
# it in __getitem__; the DataLoader's worker processes each get a copy of
# it in the same state (torch 1.13 reseeds only the global generators per
# worker), so every worker draws the same sequence. detc-unsafe-rng reports
# the draw and says what goes wrong; running the script shows it (the two
# workers' draws are pairwise equal), and in the transformed script the
# dataset's generator is reseeded per example (no two equal).
# RUN: detc analyze %s | FileCheck %s
# RUN: env OMP_NUM_THREADS=1 %python %s | FileCheck %s --check-prefix=ORIG
# RUN: detc transform %s --emit-python -o %t.py
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime %python %t.py | FileCheck %s --check-prefix=KEYED
# The same with the loader made in the loop's header (`for batch in
# DataLoader(Jittered(), ...)`): the loop named the loader afresh, its
# dataset was no object detc saw made, and the finding said
# `'$2.dataset.rng' (not created by the program)`, with neither the
# creation nor the workers' copies; the transform left the draw unkeyed.
# RUN: sed -e 's/^    loader = DataLoader(Jittered(), batch_size=1, num_workers=2)$/    pass/' -e 's/^    for batch in loader:$/    for batch in DataLoader(Jittered(), batch_size=1, num_workers=2):/' %s > %t.inline.py
# RUN: detc analyze %t.inline.py | FileCheck %s --check-prefix=INLINE
# RUN: detc transform %t.inline.py --emit-python -o %t.inline.out.py
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime %python %t.inline.out.py | FileCheck %s --check-prefix=KEYED
# INLINE: warning: generator 'self.rng' is used inside the per-example data-parallel region
# INLINE: note: generator 'self.rng' created here
# INLINE: note: each DataLoader worker process gets a copy of generator 'self.rng'
# INLINE: 1 warning(s)
# And inside the loop header's wrappers (`enumerate(iter(DataLoader(...)))`),
# which the loop unwraps to find the loader, or in a variable holding the
# wrapper (`batches = enumerate(DataLoader(...))`, a progress bar `pbar =
# tqdm(DataLoader(...))`), or in a comprehension's: the loader is made
# first, into the variable the loop keys its batches by. (The first two were '$2.dataset.rng' (not
# created by the program), the progress bar no finding at all, and the
# transform left the draws unkeyed.)
# RUN: sed -e 's/^    loader = DataLoader(Jittered(), batch_size=1, num_workers=2)$/    pass/' -e 's/^    for batch in loader:$/    for _, batch in enumerate(iter(DataLoader(Jittered(), batch_size=1, num_workers=2))):/' %s > %t.wrapped.py
# RUN: detc analyze %t.wrapped.py | FileCheck %s --check-prefix=INLINE
# RUN: detc transform %t.wrapped.py --emit-python -o %t.wrapped.out.py
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime %python %t.wrapped.out.py | FileCheck %s --check-prefix=KEYED
# A just-in-time checkpoint there saves no state of that generator: the
# keyed loader reseeds it for each example and puts it back after, so the
# run never advances it (it was refused: "the state of generator
# 'self.rng' is live there but no variable at the hint holds it").
# RUN: detc transform %t.wrapped.py --jit-checkpoint --emit-python | FileCheck %s --check-prefix=JIT
# JIT: _detc_rt.jit.boundary({{[0-9]+}}, {"jitters": lambda: jitters}, name="_checkpoint")("detc-jit")
# RUN: sed -e 's/^    loader = DataLoader(Jittered(), batch_size=1, num_workers=2)$/    batches = enumerate(DataLoader(Jittered(), batch_size=1, num_workers=2))/' -e 's/^    for batch in loader:$/    for _, batch in batches:/' %s > %t.held.py
# RUN: detc analyze %t.held.py | FileCheck %s --check-prefix=INLINE
# RUN: detc transform %t.held.py --emit-python -o %t.held.out.py
# RUN: env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime %python %t.held.out.py | FileCheck %s --check-prefix=KEYED
# RUN: sed -e 's/^    loader = DataLoader(Jittered(), batch_size=1, num_workers=2)$/    pbar = tqdm(DataLoader(Jittered(), batch_size=1, num_workers=2))/' -e 's/^    for batch in loader:$/    for batch in pbar:/' -e 's/^import torch$/import torch; from tqdm import tqdm/' %s > %t.bar.py
# RUN: detc analyze %t.bar.py | FileCheck %s --check-prefix=INLINE
# RUN: sed -e 's/^    loader = DataLoader(Jittered(), batch_size=1, num_workers=2)$/    pass/' -e 's/^    for batch in loader:$/    for batch in [b for b in DataLoader(Jittered(), batch_size=1, num_workers=2)]:/' %s > %t.comp.py
# RUN: detc analyze %t.comp.py | FileCheck %s --check-prefix=INLINE
# A variable iterating a named loader (`batches = iter(loader)`) names the
# loader's generator (it was 'batches.dataset.rng' (not created by the
# program), left unkeyed).
# RUN: sed -e 's/^\(    loader = DataLoader(Jittered(), batch_size=1, num_workers=2)\)$/\1; batches = iter(loader)/' -e 's/^    for batch in loader:$/    for batch in batches:/' %s > %t.iter.py
# RUN: detc analyze %t.iter.py | FileCheck %s --check-prefix=ITER
# ITER: warning: generator 'loader.dataset.rng' is used inside the per-example data-parallel region
# ITER: note: generator 'loader.dataset.rng' created here
# ITER: note: each DataLoader worker process gets a copy of generator 'loader.dataset.rng'
# An iterator over a progress bar over the loader (`pbar = tqdm(loader)`,
# then `batches = iter(pbar)`): the loop over it is over the loader, whose
# generator is named as the loader's (it was 'batches.dataset.rng').
# RUN: sed -e 's/^\(    loader = DataLoader(Jittered(), batch_size=1, num_workers=2)\)$/\1; pbar = tqdm(loader); batches = iter(pbar)/' -e 's/^    for batch in loader:$/    for batch in batches:/' -e 's/^import torch$/import torch; from tqdm import tqdm/' %s > %t.bariter.py
# RUN: detc analyze %t.bariter.py | FileCheck %s --check-prefix=ITER
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Jittered(Dataset):
    def __init__(self):
        self.rng = np.random.RandomState(0)

    def __len__(self):
        return 8

    def __getitem__(self, i):
        # CHECK: worker_numpy_seed.py:[[@LINE+4]]:18: warning: generator 'loader.dataset.rng' is used inside the per-example data-parallel region that starts at {{.*}}worker_numpy_seed.py:[[LOOP:[0-9]+]]:5 [detc-unsafe-rng]
        # CHECK: worker_numpy_seed.py:{{[0-9]+}}:20: note: generator 'loader.dataset.rng' created here
        # CHECK: worker_numpy_seed.py:[[LOOP]]:5: note: the per-example data-parallel region begins here
        # CHECK: note: each DataLoader worker process gets a copy of generator 'loader.dataset.rng' in the state it had when the workers started (torch reseeds only the global generators per worker): with num_workers > 0 every worker draws the same sequence (identical augmentations across workers)
        jitter = self.rng.uniform(-1.0, 1.0)
        return torch.tensor([float(i), jitter])


def main():
    # Two workers, one example per batch: worker 0 fetches examples 0, 2,
    # 4, 6 and worker 1 examples 1, 3, 5, 7, each with its copy of rng.
    loader = DataLoader(Jittered(), batch_size=1, num_workers=2)
    jitters = {}
    for batch in loader:
        jitters[int(batch[0, 0])] = float(batch[0, 1])
    pairs = sum(jitters[i] == jitters[i + 1] for i in (0, 2, 4, 6))
    # ORIG: workers drawing the same jitter: 4 of 4 pairs
    # KEYED: workers drawing the same jitter: 0 of 4 pairs
    print("workers drawing the same jitter: %d of 4 pairs" % pairs)


if __name__ == "__main__":
    main()

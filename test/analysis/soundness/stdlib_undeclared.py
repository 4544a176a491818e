# A module of the standard library is no unresolved import, also where
# python.api declares nothing about it and no interpreter is given to read
# it from (`--python none`): facebookresearch/dinov2's `from mmap import
# ACCESS_READ, mmap` and latent-diffusion's `import pdb` were "cannot
# resolve import: not a local module nor a library detc models". A call of
# one no line declares harmless, inside a data-parallel region, still may
# draw, and says whose code it is; mmap is declared harmless now.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
from mmap import ACCESS_READ, mmap
import pdb

import torch
from torch.utils.data import DataLoader, Dataset


class Shards(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        with open(__file__, "rb") as f:
            view = mmap(f.fileno(), 0, access=ACCESS_READ)
            n = len(view)
# CHECK: .py:[[@LINE+2]]:13: warning: may draw: 'pdb.set_trace' calls code detc could not read, inside the per-example data-parallel region
# CHECK: note: 'pdb.set_trace' is module 'pdb' of the standard library, which no API table declares harmless
            pdb.set_trace()
        return torch.full((2,), float(n + i))


for batch in DataLoader(Shards(), batch_size=4, num_workers=2):
    print(batch.sum())
# CHECK: 1 warning(s)

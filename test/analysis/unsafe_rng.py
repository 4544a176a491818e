# ThreadSafe/ERR on Python: aliasing through assignments, attributes and
# arguments; a helper called inside and outside a region is unsafe only on
# the inside call path; a generator created inside the region is safe.
# RUN: detc analyze %s | FileCheck %s
# RUN: not detc analyze %s --werror > /dev/null
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def jitter(x, gen):
    return x + torch.rand(x.shape, generator=gen)


class Noisy(Dataset):
    def __init__(self, n):
        self.n = n
        self.rng = np.random.default_rng(7)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        # Thread-local: created inside the per-example region.
        local = np.random.default_rng(i)
        a = local.normal()
        # Unsafe: created in __init__, outside the region.
        b = self.rng.normal()
        return torch.tensor([a, b])


shared = torch.Generator()
alias = shared
warm = jitter(torch.zeros(3), alias)
loader = DataLoader(Noisy(8), batch_size=4, num_workers=2)
for x in loader:
    y = jitter(x, alias)

# CHECK: unsafe_rng.py:28:13: warning: generator 'loader.dataset.rng' is used inside the per-example data-parallel region that starts at {{.*}}unsafe_rng.py:36:1 [detc-unsafe-rng]
# CHECK: unsafe_rng.py:18:20: note: generator 'loader.dataset.rng' created here
# CHECK: unsafe_rng.py:36:1: note: reached through the call to 'Noisy.__getitem__' here
# CHECK: unsafe_rng.py:12:16: warning: generator 'shared' is used inside the per-batch data-parallel region that starts at {{.*}}unsafe_rng.py:36:1 [detc-unsafe-rng]
# CHECK: unsafe_rng.py:32:10: note: generator 'shared' created here
# CHECK: unsafe_rng.py:37:9: note: reached through the call to 'jitter' here
# CHECK-NOT: also unsafe
# CHECK-NOT: warning:
# CHECK: 2 warning(s); unsafe generators (ERR): 'shared', 'loader.dataset.rng'

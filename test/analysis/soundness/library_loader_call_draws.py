# Code detc cannot read, given a dataset, may make a loader of it (see
# library_loader.py) — and it runs now, where it is called: inside the
# training loop it may draw there too. The call was modelled only as the
# loader it may make, and its own draw in the per-batch region went
# unreported.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: library_loader_call_draws.py:[[@LINE+6]]:8: warning: cannot resolve import 'opaquelib'
# CHECK: library_loader_call_draws.py:[[@LINE+18]]:12: warning: may draw: 'opaquelib.preview' calls code detc could not read, inside the per-batch data-parallel region that starts at {{.*}}library_loader_call_draws.py:[[@LINE+17]]:1
# CHECK: 1 warning(s)
import torch
from torch.utils.data import DataLoader, Dataset

import opaquelib


class Data(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        return torch.full((4,), float(i)), i % 2


ds = Data()
for x, y in DataLoader(ds, batch_size=4, num_workers=2):
    view = opaquelib.preview(ds)

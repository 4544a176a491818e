# A loop that takes its batches with `next(it)` from an iterator made
# before it that is no iterator over one DataLoader (a zip of two; one
# over a list): the loops advance `it`, which a checkpoint cannot save, so
# a restart would begin the iterator again (other batches, other weights,
# exit 0). The transform refuses, at the iterator, and writes nothing.
# (`next()` of such an iterator did not count as changing it: the zip was
# silently started over. An iterator over one loader, `iter(loader)`, is
# saved by its position: jit_next_iterator.py.)
# RUN: rm -f %t.py %t.list.py
# RUN: not detc transform %s --emit-python --overhead=0.05 --ckpt-cost=0.0001 -o %t.py 2>&1 | FileCheck %s
# RUN: not test -e %t.py
# RUN: sed -e 's/^it = zip(loader, DataLoader(data, batch_size=8))/it = iter(batches)/' -e 's/^    (x, y), _ = next(it)/    x, y = next(it)/' %s > %t.list.in.py
# RUN: not detc transform %t.list.in.py --emit-python --overhead=0.05 --ckpt-cost=0.0001 -o %t.list.py 2>&1 | FileCheck %s --check-prefix=LIST
# RUN: not test -e %t.list.py
# CHECK: hint_advanced_iterator.py:[[@LINE+17]]:1: error: 'it' (an iterator, line [[@LINE+17]]) is live at the chosen hint (line {{[0-9]+}}) and cannot be saved: the loops advance it (next()), so a restart could not continue where it stood; loop over the loader with `for`, or take its batches with next() from `iter(loader)`
# LIST: error: 'it' (an iterator, line [[@LINE+16]]) is live at the chosen hint
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def _checkpoint(name):
    pass


torch.manual_seed(0)
data = TensorDataset(torch.randn(256, 4), torch.randint(0, 2, (256,)))
loader = DataLoader(data, batch_size=8, shuffle=True)
batches = [(torch.randn(8, 4), torch.randint(0, 2, (8,))) for _ in range(40)]
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
it = zip(loader, DataLoader(data, batch_size=8))
for step in range(30):
    _iterations: 30
    (x, y), _ = next(it)
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()
    _checkpoint("step")
print(float(model.weight.sum()))

# A loop that takes its batches with `next(it)` from an iterator made
# before it: the loops advance `it`, which a checkpoint cannot save, so a
# restart would begin the iterator again (other batches, other weights,
# exit 0). The transform refuses, at the iterator, and writes nothing.
# RUN: rm -f %t.py
# RUN: not detc transform %s --emit-python --overhead=0.05 --ckpt-cost=0.0001 -o %t.py 2>&1 | FileCheck %s
# RUN: not test -e %t.py
# CHECK: hint_advanced_iterator.py:[[@LINE+15]]:1: error: 'it' (an iterator, line [[@LINE+15]]) is live at the chosen hint (line {{[0-9]+}}) and cannot be saved: the loops advance it (next()), so a restart could not continue where it stood
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def _checkpoint(name):
    pass


torch.manual_seed(0)
data = TensorDataset(torch.randn(256, 4), torch.randint(0, 2, (256,)))
loader = DataLoader(data, batch_size=8, shuffle=True)
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
it = iter(loader)
for step in range(30):
    _iterations: 30
    x, y = next(it)
    opt.zero_grad()
    F.cross_entropy(model(x), y).backward()
    opt.step()
    _checkpoint("step")
print(float(model.weight.sum()))

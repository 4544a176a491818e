# A hand-written EMA keeping its copy of the model in `.module` and an
# update counter beside it (the decay warms up with the count), checkpointed
# as `ema.module.state_dict()`: `X.module.state_dict()` was taken to
# restore all of X for any X, as of a DDP wrapper. A run resumed from epoch
# 0's checkpoint restored the copy, counted from 0 (8 updates where the
# whole run made 12) and ended with other EMA weights, exit 0. Only a
# wrapper's `.module` is all of it; an instance of the program's class is
# saved beside the checkpoint, and the resumed run ends as the
# uninterrupted one.
# RUN: rm -rf %t.dir && mkdir -p %t.dir
# RUN: detc transform %s --emit-python -o %t.dir/out.py
# RUN: FileCheck %s < %t.dir/out.py
# RUN: cd %t.dir && env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python out.py > whole
# RUN: cd %t.dir && env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python out.py --detc-resume ck0.pt > resumed
# RUN: diff %t.dir/whole %t.dir/resumed
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class EMA:
    def __init__(self, model, decay=0.9):
        self.module = copy.deepcopy(model)
        self.decay = decay
        self.num_updates = 0

    @torch.no_grad()
    def update(self, model):
        self.num_updates += 1
        d = min(self.decay, (1 + self.num_updates) / (10 + self.num_updates))
        for e, p in zip(self.module.parameters(), model.parameters()):
            e.mul_(d).add_(p, alpha=1 - d)


torch.manual_seed(0)
data = TensorDataset(torch.randn(32, 6), torch.arange(32) % 3)
loader = DataLoader(data, batch_size=8, shuffle=True)
model = nn.Sequential(nn.Linear(6, 16), nn.Dropout(0.2), nn.Linear(16, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
ema = EMA(model)
for epoch in range(3):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
    # CHECK: _detc_rt.checkpoint({{[0-9]+}}, torch.save, {"ema": lambda: ema}
    torch.save({"model": model.state_dict(), "ema": ema.module.state_dict(),
                "opt": opt.state_dict()}, "ck%d.pt" % epoch)
print([float(p.sum()) for p in ema.module.parameters()], ema.num_updates)

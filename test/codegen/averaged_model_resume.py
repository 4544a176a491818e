# EMA weights kept by `torch.optim.swa_utils.AveragedModel`, checkpointed
# as its copy's state dict (`ema.module.state_dict()`): `X.module.
# state_dict()` was taken to restore all of X, as of a DDP wrapper — but an
# AveragedModel has state of its own, its `n_averaged` counter. A run
# resumed from epoch 0's checkpoint restored the copy, counted from 0, and
# the first average after it copied the model instead: other EMA weights,
# exit 0. The averaged model is now saved beside the checkpoint (with its
# counter); the resumed run ends as the uninterrupted one.
# RUN: rm -rf %t.dir && mkdir -p %t.dir
# RUN: detc transform %s --emit-python -o %t.dir/out.py
# RUN: FileCheck %s < %t.dir/out.py
# RUN: cd %t.dir && env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python out.py > whole
# RUN: cd %t.dir && env OMP_NUM_THREADS=1 PYTHONPATH=%detc_runtime DETC_QUIET=1 %python out.py --detc-resume ck0.pt > resumed
# RUN: diff %t.dir/whole %t.dir/resumed
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
data = TensorDataset(torch.randn(32, 6), torch.arange(32) % 3)
loader = DataLoader(data, batch_size=8, shuffle=True)
model = nn.Sequential(nn.Linear(6, 16), nn.Dropout(0.2), nn.Linear(16, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
ema = AveragedModel(model)
for epoch in range(3):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update_parameters(model)
    # CHECK: _detc_rt.checkpoint({{[0-9]+}}, torch.save, {"ema": lambda: ema
    torch.save({"model": model.state_dict(), "ema": ema.module.state_dict(),
                "opt": opt.state_dict()}, "ck%d.pt" % epoch)
print([float(p.sum()) for p in ema.parameters()], int(ema.n_averaged))

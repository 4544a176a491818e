# Weight averaging (`torch.optim.swa_utils.AveragedModel`: SWA, and EMA
# weights through `avg_fn`): the averaged model is a deep copy of the
# model that runs the copy in forward. Undescribed, every call on it was
# "may draw" (code detc could not read). Described as a copy — its
# forward draws as the model's does (the copy's dropout), its state its
# own — `ema(x)` reaches the copied dropout, `update_parameters` draws
# nothing, and a checkpoint of the model alone saves the averaged models
# beside it: a resume restores them. (As a wrapper — DDP's role — the
# averaged model would alias the model, and nothing would be saved.)
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s --check-prefix=SAVED < %t.py
# Without the model's own forward in the loop, the EMA model's reaches it.
# RUN: sed -e 's/^        loss = F.cross_entropy(model(x), y)$/        loss = 0/' %s > %t.ema.py
# RUN: detc analyze %t.ema.py 2>&1 | FileCheck %s --check-prefix=EMA
# EMA: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# EMA: note: reached through the forward of 'ema' here
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.swa_utils import AveragedModel
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
data = TensorDataset(torch.randn(64, 6), torch.arange(64) % 3)
loader = DataLoader(data, batch_size=8, shuffle=True)
# CHECK: averaged_model.py:[[@LINE+1]]:41: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
model = nn.Sequential(nn.Linear(6, 16), nn.Dropout(0.2), nn.Linear(16, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa = AveragedModel(model)
ema = AveragedModel(model, avg_fn=lambda avg, new, n: 0.99 * avg + 0.01 * new)
for epoch in range(2):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        # The EMA model's training-mode loss: its copy's dropout draws.
        loss = loss + 0.1 * F.cross_entropy(ema(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update_parameters(model)
    swa.update_parameters(model)
    # SAVED: _detc_rt.checkpoint({{[0-9]+}}, torch.save, {"swa": lambda: swa, "ema": lambda: ema}, loops=("epoch",))
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, "ck.pt")
# CHECK-NOT: may draw
# CHECK: 1 warning(s)

# A loss whose constructor builds a memory bank (RepDistiller's CRDLoss:
# `self.contrast = ContrastMemory(...)`, a buffer its forward updates in
# place): the bank is `self.memory.bank` of the constructor, which runs in
# a namespace of its own when the loss's forward runs the bank's. The
# script knows it as `criterion.memory.bank`: `self` of `__init__` is
# what each call binds it to. The session-63 first binary refused the
# sidecar: "'self.memory.bank' (of 'ContrastLoss::__init__') must be saved
# but is not visible where the checkpoint is written".
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# DIAG-NOT: detc writes no sidecar
# CHECK: _detc_rt.checkpoint([[SITE:[0-9]+]], torch.save, {"criterion": lambda: criterion}, loops=("epoch",))(
# CHECK: if _detc_rt.restoring([[SITE]]):
# CHECK: if _detc_rt.has_value("criterion"): criterion = _detc_rt.saved_value("criterion", lambda: criterion)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Memory(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.register_buffer("bank", torch.rand(n, dim))

    def forward(self, f, idx):
        out = f @ self.bank.clone().t()
        with torch.no_grad():
            self.bank[idx] = 0.5 * self.bank[idx] + 0.5 * f.detach()
        return out


class ContrastLoss(nn.Module):
    def __init__(self, n, dim):
        super().__init__()
        self.memory = Memory(n, dim)

    def forward(self, f, idx):
        return self.memory(f, idx).logsumexp(1).mean()


torch.manual_seed(0)
data = TensorDataset(torch.randn(16, 4), torch.arange(16))
loader = DataLoader(data, batch_size=4, shuffle=True)
model = nn.Linear(4, 3)
criterion = ContrastLoss(16, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    for x, idx in loader:
        loss = criterion(model(x), idx)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()},
               "ckpt.pt")

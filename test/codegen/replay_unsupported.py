# A checkpoint detc cannot restore exactly keeps the plain call, with a
# warning naming the reason ([detc-replay]); in fast-forward it is skipped
# like any statement, and the other sites get sidecars.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s
# RUN: FileCheck %s --check-prefix=OUT < %t.py
import torch
import torch.nn as nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    opt.zero_grad()
    model(torch.randn(8, 4)).sum().backward()
    opt.step()
    # CHECK: replay_unsupported.py:[[@LINE+1]]:5: warning: detc writes no sidecar for this checkpoint: detc restores a checkpoint saved as a variable, `X.state_dict()` or a dict, list or tuple display of those and variables [detc-replay]
    torch.save(model.state_dict()["weight"], "weight.pt")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, "ok.pt")
# CHECK-NOT: warning
# OUT: if _detc_rt.guard(): torch.save(model.state_dict()["weight"], "weight.pt")  # detc: skipped in fast-forward
# OUT-NEXT: _detc_rt.checkpoint([[SITE:[0-9]+]], torch.save, None, loops=("epoch",))({"model": model.state_dict(), "opt": opt.state_dict()}, "ok.pt")  # detc: checkpoint with sidecar
# OUT-NEXT: if _detc_rt.restoring([[SITE]]):

"""The optimizer comes from a library detc cannot read (here an import it
cannot resolve; timm's in open_clip's train.py): its `opt.step()` is no
update op detc knows. A call of a method `step` on such an object may
step an optimizer: the loop around it is the training loop, not the
evaluation loop before it (the boundary went there, first in source
order, when no loop seemed to step). The step is not wrapped; the
runtime sees from the parameters' version counters whether it ran
before a failure and then writes no checkpoint (runtime JitTest). The
session-57 binary said the unresolved import twice."""
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# DIAG: warning: cannot resolve import 'fancyopt'
# The script is lowered again with its boundary: said once.
# DIAG-NOT: warning: cannot resolve import 'fancyopt'
# DIAG: jit_unread_optimizer.py:[[@LINE+26]]:9: warning: --jit-checkpoint: 'opt.step' calls code detc cannot read and may step an optimizer, which detc cannot wrap: a failure after it writes no just-in-time checkpoint (the runtime sees the parameters change) [detc-jit]
# DIAG-NOT: error
# CHECK: {{^}}def evaluate(model, loader):
# CHECK-NOT: jit{{[.]}}boundary
# CHECK: {{^}}def train(model, loader, opt):
# CHECK-NEXT: for x, y in
# CHECK-NEXT: _detc_rt.jit.boundary(
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

import fancyopt


def evaluate(model, loader):
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            print(F.cross_entropy(model(x), y).item())


def train(model, loader, opt):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


torch.manual_seed(0)
data = TensorDataset(torch.randn(40, 6), torch.arange(40) % 3)
loader = DataLoader(data, batch_size=8, shuffle=True)
model = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Dropout(0.3),
                            torch.nn.Linear(16, 3))
opt = fancyopt.SGD(model.parameters(), lr=0.05)
for epoch in range(2):
    evaluate(model, loader)
    model.train()
    train(model, loader, opt)

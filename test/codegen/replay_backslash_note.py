# A statement fast-forward skips, continued on the next line with a
# backslash (facebookresearch/simsiam's `k_pre = 'module.encoder.' +
# k[len('module.'):] \` / `if k.startswith(...) else ...`): its note goes
# on the line it continues to. It went after the backslash, and the
# emitted script did not parse (an internal error, exit 3, with the
# session-58 binary once simsiam got its sidecar).
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: error
# CHECK: {{^}}    if _detc_rt.guard(): total = total + \{{$}}
# CHECK-NEXT: {{^}}        loss.item()  # detc: skipped in fast-forward
import torch
from torch.utils.data import DataLoader, TensorDataset

model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.3),
                            torch.nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(16, 4), torch.arange(16) % 2),
                    batch_size=4, shuffle=True, num_workers=2)
total = 0.0
for epoch in range(3):
  for x, y in loader:
    loss = torch.nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    total = total + \
        loss.item()
  torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, "ckpt.pt")

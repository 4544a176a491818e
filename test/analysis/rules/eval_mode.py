# Dropout modules draw only in training mode. The validation loop runs
# after `model.eval()` on every path: its forward's dropout draws nothing,
# so the only unsafe use is the training loop's (its region starts at the
# `for x, y in train` line). When some path puts the model back in training
# mode before validation (MAYBE), or the eval() is on one branch only
# (BRANCH), the validation region's use is unsafe too; `model.train()` at
# the top of the epoch restores training mode for the training loop.
# RUN: detc %s --debug-info | detc-opt --test-thread-safety -o /dev/null | FileCheck %s
# RUN: sed -e 's/^    model.eval()$/    model.eval()\n    if epoch > 5:\n        model.train()/' %s > %t.maybe.py
# RUN: detc %t.maybe.py --debug-info | detc-opt --test-thread-safety -o /dev/null | FileCheck %s --check-prefix=MAYBE
# RUN: sed -e 's/^    model.eval()$/    if epoch > 0:\n        model.eval()/' %s > %t.branch.py
# RUN: detc %t.branch.py --debug-info | detc-opt --test-thread-safety -o /dev/null | FileCheck %s --check-prefix=MAYBE
# CHECK: unsafe: {{.*}}eval_mode.py:[[@LINE+10]]:{{[0-9]+}} 'torch' (global) in region {{.*}}eval_mode.py:[[@LINE+18]]:
# CHECK-NOT: unsafe:
# CHECK: ERR: {'torch' (global)}
# MAYBE: unsafe: {{.*}}'torch' (global) in region {{.*}}:{{[0-9]+}}:
# MAYBE-NEXT: unsafe: {{.*}}'torch' (global) in region {{.*}}:{{[0-9]+}}:
# MAYBE-NEXT: ERR: {'torch' (global)}
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
train = DataLoader(TensorDataset(torch.randn(64, 4), torch.randn(64, 1)),
                   batch_size=8, shuffle=True)
val = DataLoader(TensorDataset(torch.randn(16, 4), torch.randn(16, 1)),
                 batch_size=8)
for epoch in range(2):
    model.train()
    for x, y in train:
        opt.zero_grad()
        ((model(x) - y) ** 2).mean().backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        for x, y in val:
            out = model(x)

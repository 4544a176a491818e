# detc-misplaced-zero-grad: zero_grad between backward and step. The fixed
# variant zeroes before backward.
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: detc analyze %S/Inputs/zero_grad_fixed.py --werror | FileCheck %s --check-prefix=FIXED
import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.ones(3, 4), torch.zeros(3, 2))] * 4
for epoch in range(2):
    for x, y in data:
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        # CHECK: misplaced_zero_grad.py:[[@LINE+1]]:9: warning: zero_grad() runs after backward() and before the optimizer step at line [[@LINE+3]]: the step applies zeroed gradients [detc-misplaced-zero-grad]
        opt.zero_grad()
        # CHECK-NEXT: opt.zero_grad()
        opt.step()
        # CHECK: misplaced_zero_grad.py:[[@LINE-5]]:9: note: the gradients are computed here
        # CHECK: misplaced_zero_grad.py:[[@LINE-2]]:9: note: and the optimizer step is here
# CHECK: 1 warning(s)

# FIXED: 0 warning(s)

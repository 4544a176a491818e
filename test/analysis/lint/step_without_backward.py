# detc-step-without-backward: the backward sits in an evaluation branch that
# the step's path does not go through... here simply forgotten: the loop
# computes the loss and steps. The fixed variant calls backward.
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: detc analyze %S/Inputs/zero_grad_fixed.py --werror | FileCheck %s --check-prefix=FIXED
import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.ones(3, 4), torch.zeros(3, 2))] * 4
for epoch in range(2):
    for x, y in data:
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        # CHECK: step_without_backward.py:[[@LINE+1]]:9: warning: optimizer step with no backward() since the previous step or zero_grad() on any path that reaches it [detc-step-without-backward]
        opt.step()
        # CHECK: step_without_backward.py:[[@LINE-4]]:9: note: gradients are reset here
# CHECK: 1 warning(s)

# FIXED: 0 warning(s)

# An optimizer over the model's parameters taken through list(), filter()
# or a variable (issue 42): its steps update the model, so a loop that never
# resets the gradients is found as with `SGD(model.parameters())` (the
# optimizer used to be modelled as updating nothing of the model, and the
# lint was silent).
# RUN: not detc analyze %s --werror | FileCheck %s
import torch
from torch import nn

model = nn.Linear(4, 2)
params = list(model.parameters())
opt = torch.optim.SGD(params, lr=0.1)
trainable = filter(lambda p: p.requires_grad, model.parameters())
opt2 = torch.optim.Adam(trainable, lr=1e-3)
data = [(torch.ones(3, 4), torch.zeros(3, 2))] * 4
for x, y in data:
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    # CHECK: optimizer_over_list.py:[[@LINE+1]]:5: warning: gradients are not reset between optimizer steps
    opt.step()
for x, y in data:
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    # CHECK: optimizer_over_list.py:[[@LINE+1]]:5: warning: gradients are not reset between optimizer steps
    opt2.step()

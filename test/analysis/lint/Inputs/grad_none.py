# Gradients cleared by hand, the idioms that replace zero_grad(): `p.grad =
# None` over the model's parameters before backward, and `p.grad.zero_()`
# (under a test) after the step.
import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.ones(3, 4), torch.zeros(3, 2))] * 4

for x, y in data:
    for p in model.parameters():
        p.grad = None
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()

model2 = nn.Linear(4, 2)
opt2 = torch.optim.SGD(model2.parameters(), lr=0.1)
for x, y in data:
    loss = ((model2(x) - y) ** 2).mean()
    loss.backward()
    opt2.step()
    for p in model2.parameters():
        if p.grad is not None:
            p.grad.zero_()

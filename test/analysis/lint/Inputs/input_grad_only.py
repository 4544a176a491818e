# Clearing an input's gradient (an attack's perturbation) is not a
# zero_grad of the model: the loop still accumulates the model's
# gradients across steps.
import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.ones(3, 4), torch.zeros(3, 2))] * 4
deltas = [torch.zeros(3, 4, requires_grad=True)]

for x, y in data:
    for delta in deltas:
        loss = ((model(x + delta) - y) ** 2).mean()
        loss.backward()
        delta.grad.zero_()
    opt.step()

import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.ones(3, 4), torch.zeros(3, 2))] * 4
for epoch in range(2):
    for x, y in data:
        delta = torch.zeros_like(x, requires_grad=True)
        for _ in range(3):
            attack = ((model(x + delta) - y) ** 2).mean()
            attack.backward()
            delta = (delta + 0.1 * delta.grad.sign()).detach().requires_grad_()
        opt.zero_grad()
        loss = ((model(x + delta) - y) ** 2).mean()
        loss.backward()
        opt.step()

import torch
from torch import nn

model = nn.Linear(4, 1)
opt = torch.optim.LBFGS(model.parameters(), lr=0.1)
x, y = torch.randn(16, 4), torch.randn(16, 1)
for step in range(10):
    def closure():
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        return loss
    opt.step(closure)

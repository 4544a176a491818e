import random
import sys

import torch

from loaders import make_loader

torch.manual_seed(0)
random.seed(0)
loader = make_loader(int(sys.argv[1]))
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.001)
for epoch in range(2):
    for x in loader:
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
print(type(loader).__name__, model.weight.tolist(), model.bias.tolist())

import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.ones(3, 4), torch.zeros(3, 2))] * 8
accumulate = 4
for epoch in range(2):
    for i, (x, y) in enumerate(data):
        loss = ((model(x) - y) ** 2).mean() / accumulate
        loss.backward()
        if (i + 1) % accumulate == 0:
            opt.step()
            opt.zero_grad(set_to_none=True)

# A model moved at the top of each stage, the optimizer rebuilt after it:
# the move of the next stage is not "after" this optimizer (back edge).
import torch
from torch import nn
model = nn.Linear(4, 2)
for stage in range(2):
    model.to("cpu")
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in [torch.ones(2, 4)]:
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()

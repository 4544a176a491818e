import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def build(device):
    model = nn.Linear(4, 2).to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return model, opt


model, opt = build("cpu")
net = DDP(nn.Linear(4, 2))
adam = torch.optim.Adam(net.parameters())
for x in [torch.ones(2, 4)]:
    x = x.to("cpu")
    adam.zero_grad()
    net(x).sum().backward()
    adam.step()

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(16, 4), torch.randn(16, 1)), batch_size=4)
k = 4
for i, (x, y) in enumerate(loader):
    loss = ((model(x) - y) ** 2).mean() / k
    loss.backward()
    if (i + 1) % k == 0:
        opt.step()
        model.zero_grad()

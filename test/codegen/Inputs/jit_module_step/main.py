import torch
from torch.utils.data import DataLoader, TensorDataset

from optim import ScheduledOptim

model = torch.nn.Linear(4, 2)
optimizer = ScheduledOptim(model, 4)
loader = DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=4)
for epoch in range(2):
    for (x,) in loader:
        model(x).sum().backward()
        optimizer.step_and_update_lr()
        optimizer.zero_grad()

import torch
from torch.utils.data import DataLoader, TensorDataset

import utils
from engine import train_one_epoch

data = TensorDataset(torch.randn(16, 4), torch.arange(16) % 2)
sampler = utils.EpochSampler(16)
loader = DataLoader(data, batch_size=4, sampler=sampler)
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    loader.sampler.set_epoch(epoch)
    train_one_epoch(model, loader, opt, epoch)

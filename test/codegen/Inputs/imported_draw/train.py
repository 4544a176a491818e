import torch
from torch.utils.data import DataLoader, TensorDataset

from noise_helpers import perturb

loader = DataLoader(TensorDataset(torch.zeros(32, 4)), batch_size=8,
                    shuffle=True, num_workers=2)
model = torch.nn.Linear(4, 1)
for (x,) in loader:
    model(perturb(x, 0.1)).sum().backward()

"""Per-batch draws from numpy's and random's global generators in the
training loop (PyTorch-GAN's `np.random.normal` latent codes, a replay
buffer's `random.uniform`, a mixup's
`torch.randperm`): the transformed script keys them by the batch
(draws.batch_keyed), also while `detc audit` has wrapped those functions."""
import random
import sys

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(32, 4)), batch_size=8,
                    shuffle=True, num_workers=int(sys.argv[1]))
total = 0.0
for (x,) in loader:
    z = torch.from_numpy(np.random.normal(0, 1, (x.shape[0], 4)))
    if random.uniform(0, 1) > 0.5:
        z = -z
    x = x[torch.randperm(x.shape[0])]
    total += float((x * z).sum())
print(total)

# accelerate's `prepare` makes a new DataLoader over the loader it is given
# (its sampler in a BatchSampler), and the script iterates that one: the
# transform keys torch's DataLoader where libraries construct it, so the
# new loader's examples run in example scopes too. Before, the header had
# no key_imported_loaders: the examples drew from the workers' global
# generators, and the transformed script differed between 0 and 2 workers
# without a warning (with accelerate 1.16 from PyPI).
# RUN: detc transform --emit-python --python none %s -o %t.py
# RUN: FileCheck %s < %t.py
# CHECK: {{^}}_detc_rt.key_imported_loaders(
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset


class Flipped(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        x = torch.ones(4) * i
        return (x.flip(0) if random.random() < 0.5 else x), i % 2


accelerator = Accelerator()
model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(Flipped(), batch_size=4, shuffle=True, num_workers=2)
model, opt, loader = accelerator.prepare(model, opt, loader)
for x, y in loader:
    loss = F.cross_entropy(model(x), y)
    accelerator.backward(loss)
    opt.step()
    opt.zero_grad()

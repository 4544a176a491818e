# A library function that makes a torch.Generator and seeds it at once from
# its own values (`g = torch.Generator(); g.manual_seed(self.noise_seed +
# t)`, timm's schedulers' noise, called in the training loop as
# `lr_scheduler.step_update(step)`) draws the same values every run: no
# finding (it was "draws: makes a generator of its own", on every script
# using timm's schedulers with timm installed). A generator seeded from the
# operating system is still a draw.
# RUN: rm -rf %t.cache
# RUN: env PYTHONPATH=%S/Inputs/site-packages DETC_CACHE_DIR=%t.cache \
# RUN:   detc analyze --python %python %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: library_seeded_generators.py:[[@LINE+19]]:5: warning: draws: 'entropy.step_update' runs library code that draws
# CHECK: makes a generator of its own, 'torch.Generator' at {{.*}}fakesched{{/|\\}}__init__.py:23
# CHECK: 1 warning(s)
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from fakesched import EntropyNoise, SeededNoise

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
seeded, entropy = SeededNoise(), EntropyNoise()
loader = DataLoader(TensorDataset(torch.ones(8, 4), torch.zeros(8).long()), batch_size=2)
for step, (x, y) in enumerate(loader):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    seeded.step_update(step)
    entropy.step_update(step)

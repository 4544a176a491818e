"""A loop over a DataLoader whose batch_sampler (or sampler) is an object of
the script's classes, resumed from the script's own checkpoint: the
sampler may draw the epoch's order when the loader's iteration starts
(a GroupedBatchSampler's torch.randperm), so fast-forward iterates the
loader with placeholder batches as the run did, where the loop was
skipped as a whole (it drew nothing, the analysis said): the keyed
loader's position at the checkpoint then did not match (exit 3), or, for
a loader detc did not key, the runtime's check could not see it."""
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# DIAG-NOT: error
# CHECK: {{^    }}for step, (x, y) in enumerate(_detc_rt.batches(grouped, 2)):
# CHECK: {{^    }}for x, y in _detc_rt.batches(indexed, 2):
import torch
from torch.utils.data import DataLoader, Sampler, TensorDataset


class ShuffledBatches(Sampler):
    def __init__(self, n, size):
        self.n, self.size = n, size

    def __iter__(self):
        order = torch.randperm(self.n).tolist()
        for i in range(0, self.n, self.size):
            yield order[i:i + self.size]

    def __len__(self):
        return (self.n + self.size - 1) // self.size


class Reversed(Sampler):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n - 1, -1, -1))

    def __len__(self):
        return self.n


torch.manual_seed(0)
data = TensorDataset(torch.randn(40, 6), torch.arange(40) % 3)
grouped = DataLoader(data, batch_sampler=ShuffledBatches(40, 8))
indexed = DataLoader(data, batch_size=8, sampler=Reversed(40))
model = torch.nn.Linear(6, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    for step, (x, y) in enumerate(grouped):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    for x, y in indexed:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()},
               "ck.pt")

# A collate_fn that is a method of the program's class, bound to its
# instance (eriklindernoren/PyTorch-YOLOv3: `collate_fn=dataset.collate_fn`,
# whose multi-scale training picks the next image size with random.choice
# every tenth batch): the loader calls it per batch, in its workers. The
# analysis saw only plain functions as collate_fn and missed the draw. The
# method is called with its instance bound (the dataset's own collate_fn,
# and one of another object); a method that draws nothing adds nothing.
# Its batch counter is state each worker keeps on its own: which batches
# get a new size depends on num_workers (detc-worker-state).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-DAG: collate_bound_method.py:[[@LINE+26]]:25: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}collate_bound_method.py:[[#LOOP:]]:1
# CHECK-DAG: note: reached through the call to 'Boxes.collate_fn' here
# CHECK-DAG: collate_bound_method.py:[[@LINE+36]]:34: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}collate_bound_method.py:[[#LOOP2:]]:1
# CHECK-DAG: note: reached through the call to 'Jitter.apply' here
# CHECK-DAG: collate_bound_method.py:[[@LINE+20]]:9: warning: `self.batches` of `Boxes` is rebound here while a DataLoader worker makes an example (or a batch), and the next one reads it
# CHECK: 3 warning(s)
import random

import torch
from torch.utils.data import DataLoader, Dataset


class Boxes(Dataset):
    def __init__(self):
        self.size = 32
        self.batches = 0

    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.zeros(4), i

    def collate_fn(self, batch):
        self.batches += 1
        if self.batches % 10 == 0:
            self.size = random.choice(range(32, 64, 8))
        xs, ys = zip(*batch)
        return torch.stack(xs), torch.tensor(ys)

    def plain_collate(self, batch):
        xs, ys = zip(*batch)
        return torch.stack(xs), torch.tensor(ys)


class Jitter:
    def apply(self, batch):
        xs, ys = zip(*batch)
        return torch.stack(xs) + torch.randn(len(xs), 4), torch.tensor(ys)


def train(loader, model, opt):
    for x, y in loader:
        loss = model(x).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


random.seed(0)
torch.manual_seed(0)
dataset = Boxes()
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in DataLoader(dataset, batch_size=4, num_workers=2,
                       collate_fn=dataset.collate_fn):
    opt.zero_grad()
    model(x).mean().backward()
    opt.step()
train(DataLoader(dataset, batch_size=4, num_workers=2,
                 collate_fn=dataset.plain_collate), model, opt)
jitter = Jitter()
for x, y in DataLoader(dataset, batch_size=4, num_workers=2,
                       collate_fn=jitter.apply):
    opt.zero_grad()
    model(x).mean().backward()
    opt.step()

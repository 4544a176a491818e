# `collections.defaultdict(factory)[key]` is what factory() returns: DINO's,
# DETR's, DeiT's and MAE's MetricLogger keeps `self.meters =
# defaultdict(SmoothedValue)` and calls `self.meters[k].update(v)` in the
# training loop. That was "may draw: calls code detc could not read" on
# every such loop; the program's SmoothedValue.update runs now, and its
# draw (here a deliberate one) is found where it is.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK: defaultdict_factory.py:[[@LINE+14]]:27: warning: generator 'random' (global) is used inside the per-batch data-parallel region
# CHECK-NOT: may draw
# CHECK: 1 warning(s)
import random
from collections import defaultdict

import torch


class SmoothedValue:
    def __init__(self):
        self.total = 0.0

    def update(self, v):
        self.total += v * random.random()


class MetricLogger:
    def __init__(self):
        self.meters = defaultdict(SmoothedValue)

    def update(self, **kwargs):
        for k, v in kwargs.items():
            self.meters[k].update(v)


model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
logger = MetricLogger()
loader = torch.utils.data.DataLoader(torch.zeros(8, 4), batch_size=2)
for x in loader:
    opt.zero_grad()
    loss = model(x).sum()
    loss.backward()
    opt.step()
    logger.update(loss=loss.item())

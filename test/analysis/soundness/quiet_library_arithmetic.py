# Arithmetic on a value of a library declared quiet (api/python.api) is a
# value of that library: `datetime.now() - self.timer` is a timedelta, and
# its `total_seconds()` in the training loop (TorchSSL's TensorBoard
# writer) draws nothing. Before, the difference was a value detc could not
# trace, and the call a may-draw finding. A tensor's draws stay draws
# whatever the other operand is.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import datetime
import time

import torch
from torch.utils.data import DataLoader, TensorDataset


class Writer:
    def __init__(self):
        self.timer = datetime.datetime.now()

    def tick(self, epoch):
        duration = datetime.datetime.now() - self.timer
        per_epoch = duration.total_seconds() / (epoch + 1)
        days = (datetime.datetime.now() - self.timer).days
        return per_epoch, days


writer = Writer()
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.randn(8, 4), torch.randn(8, 1))
for x, y in DataLoader(data, batch_size=2):
    opt.zero_grad()
    noise = torch.zeros(4) * time.time()
    # CHECK: quiet_library_arithmetic.py:[[@LINE+1]]:5: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
    noise.normal_()
    (model(x + noise) - y).pow(2).mean().backward()
    opt.step()
    writer.tick(0)
# CHECK: 1 warning(s)

# Attributes computed by a `@property` getter. A logger's `run` made on
# first read (YOLOX's WandbLogger: `self.run.log(metrics)`, the run a
# tracking library's): what the getter returns, here code detc cannot
# read, so the call is a may-draw (before: silent once the logger class
# was resolved). A model's `head` property returning a layer, called as
# `self.head(x)`: the layer runs, its dropout a per-batch draw (before:
# the getter was called as a method with x, and the dropout was missed).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: property_attributes.py:[[@LINE+8]]:8: warning: cannot resolve import 'tracker_lib'
# CHECK-DAG: property_attributes.py:[[@LINE+29]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}property_attributes.py:[[@LINE+43]]:1
# CHECK-DAG: property_attributes.py:[[@LINE+21]]:9: warning: may draw: 'self.run.log' calls code detc could not read
# CHECK: 2 warning(s)
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

import tracker_lib


class Logger:
    def __init__(self, project):
        self.project = project
        self._run = None

    @property
    def run(self):
        if self._run is None:
            self._run = tracker_lib.init(project=self.project)
        return self._run

    def log_metrics(self, metrics):
        self.run.log(metrics)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.1)

    @property
    def head(self):
        return self.drop

    def forward(self, x):
        return self.head(self.fc(x))


logger = Logger("demo")
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.zeros(8, 4)), batch_size=2)
for (x,) in loader:
    opt.zero_grad()
    loss = model(x).sum()
    loss.backward()
    opt.step()
    logger.log_metrics({"loss": loss.item()})

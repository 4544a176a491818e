# A dataclass holding the training state (open_clip's
# `TrainState(task=task, optimizer=optimizer, ...)`, then
# `task = state.task` in the training function): the `__init__` the
# decorator writes stores each argument in its field, by keyword or in the
# order the class body annotates the fields. Without it the model read
# back was a value detc could not trace: one may-draw, and its dropout
# unseen (open_clip: no draw of its model, transforms or tokenizer found).
# A dataclass deriving from another takes its base's fields first: there a
# positional argument may be any field (`EvalState(0, net)` holds `net` in
# `model`).
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: dataclass_fields.py:[[@LINE+17]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: note: reached through the forward of 'model' here
# CHECK: dataclass_fields.py:[[@LINE+40]]:20: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: note: reached through the forward of 'state.model' here
# CHECK: 2 warning(s)
from dataclasses import dataclass, field
from typing import Any, Optional

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.drop(self.fc(x))


@dataclass
class TrainState:
    model: Any
    optimizer: Optional[torch.optim.Optimizer] = None
    epoch: int = 0
    history: dict = field(default_factory=dict)


def train_one_epoch(state, loader):
    model = state.model
    for (x,) in loader:
        loss = model(x).sum()
        state.optimizer.zero_grad()
        loss.backward()
        state.optimizer.step()


class Noisy(nn.Module):
    def forward(self, x):
        return x + torch.randn_like(x)


@dataclass
class Stamped:
    step: int = 0


@dataclass
class EvalState(Stamped):
    model: Any = None


def noisy_eval(state, loader):
    for (x,) in loader:
        out = state.model(x)
        loss = out.sum()
        loss.backward()


net = Net()
state = TrainState(net, optimizer=torch.optim.SGD(net.parameters(), lr=0.1))
loader = DataLoader(TensorDataset(torch.ones(8, 4)), batch_size=2)
train_one_epoch(state, loader)
noisy_eval(EvalState(0, Noisy()), loader)

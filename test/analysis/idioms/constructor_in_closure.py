"""An object built by a user class's constructor in a function whose
nested helper updates it (the ImageNet example's `validate`: meters built
there, updated in `run_validate`). The constructor's `__init__` stores the
object's attributes before the call returns: the variable is defined when
the call begins, not when it ends, so it is not live before its
definition — nor around the epoch loop at the JIT boundary in `train`,
which then saves only what the loops carry."""
# RUN: detc transform %s --emit-python --jit-checkpoint | FileCheck %s
# CHECK: _detc_rt.jit.boundary({{[0-9]+}}, {"gen:torch": lambda: _detc_rt.generator_state("torch")}, outer={1: ("loader", "model", "optimizer", )}, live=("gen:torch", ), name="_checkpoint")("detc-jit")
# CHECK-NOT: batch_time": lambda
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Meter:
    def __init__(self):
        self.sum = 0.0

    def update(self, v):
        self.sum += v


def train(loader, model, optimizer):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def validate(loader, model):
    batch_time = Meter()

    def run_validate(loader):
        with torch.no_grad():
            for x, y in loader:
                batch_time.update(float(model(x).sum()))

    run_validate(loader)
    return batch_time.sum


def main():
    loader = DataLoader(TensorDataset(torch.randn(64, 4), torch.zeros(64, dtype=torch.long)), batch_size=8, shuffle=True)
    model = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        train(loader, model, optimizer)
        validate(loader, model)


main()

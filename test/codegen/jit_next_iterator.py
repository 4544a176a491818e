"""Batches taken with next() from iterators kept across the loops, in the
shape of MixMatch's and FixMatch's loops (`labeled_iter =
iter(labeled_trainloader)`; per step `try: next(labeled_iter)` / `except
StopIteration: labeled_iter = iter(labeled_trainloader)`) and SSD's
(`batch_iterator = iter(data_loader)` with the loop over a `range` of
iterations). The boundary saves each iterator by its position in its
loader's epoch (values.py, "loader_iterator") and the restart makes it
again there. Before, the transform was refused: "'labeled_iter' (an
iterator) ... cannot be saved: the loops advance it (next())".
e2e-jit-failures-next restarts a script of this shape bit-identically."""
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.py 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# DIAG-NOT: error
# CHECK: labeled_iter = iter(labeled)
# CHECK: unlabeled_iter = iter(unlabeled)
# CHECK: for step in _detc_rt.hints.loop({{[0-9]+}}, 1, range(steps)):
# CHECK-NEXT: _detc_rt.jit.boundary({{[0-9]+}}, {"labeled_iter": lambda: labeled_iter, "model": lambda: model, "opt": lambda: opt, "unlabeled_iter": lambda: unlabeled_iter,
# CHECK: labeled_iter = _detc_rt.hints.value("labeled_iter", lambda: labeled_iter)
# CHECK: unlabeled_iter = _detc_rt.hints.value("unlabeled_iter", lambda: unlabeled_iter)
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def train(epochs, steps):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.3),
                                torch.nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    labeled = DataLoader(TensorDataset(torch.randn(16, 4),
                                       torch.arange(16) % 2),
                         batch_size=4, shuffle=True)
    unlabeled = DataLoader(TensorDataset(torch.randn(40, 4)), batch_size=4,
                           shuffle=True)
    labeled_iter = iter(labeled)
    unlabeled_iter = iter(unlabeled)
    for epoch in range(epochs):
        for step in range(steps):
            try:
                x, y = next(labeled_iter)
            except StopIteration:
                labeled_iter = iter(labeled)
                x, y = next(labeled_iter)
            try:
                (u,) = next(unlabeled_iter)
            except StopIteration:
                unlabeled_iter = iter(unlabeled)
                (u,) = next(unlabeled_iter)
            loss = F.cross_entropy(model(x), y) + model(u).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


train(2, 6)

"""A `while True:` training loop taking its batches with next(), in the
shape of minGPT's Trainer.run: the minibatch boundary goes first in the
`while` body, which a restart enters without evaluating the test; the
iteration counter and the iterator (by its position) are saved. Before,
the transform said the script had no loop over batches (only a `for`
could be the training loop). e2e-jit-failures-while restarts a script of
this shape bit-identically."""
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.py 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# DIAG-NOT: error
# CHECK: data_iter = iter(loader)
# CHECK: while _detc_rt.hints.entering({{[0-9]+}}) or (True):
# CHECK-NEXT: _detc_rt.jit.boundary({{[0-9]+}}, {"data_iter": lambda: data_iter, "iter_num": lambda: iter_num, "model": lambda: model, "opt": lambda: opt,
# CHECK: data_iter = _detc_rt.hints.value("data_iter", lambda: data_iter)
# CHECK: iter_num = _detc_rt.hints.value("iter_num", lambda: iter_num)
# CHECK: _detc_rt.jit.step(opt.step)()
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def run(max_iters):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.3),
                                torch.nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(16, 4),
                                      torch.arange(16) % 2),
                        batch_size=4, shuffle=True)
    data_iter = iter(loader)
    iter_num = 0
    while True:
        try:
            x, y = next(data_iter)
        except StopIteration:
            data_iter = iter(loader)
            x, y = next(data_iter)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        iter_num += 1
        if iter_num >= max_iters:
            break


run(10)

"""Full-batch training in the shape of tkipf/pygcn: `for epoch in
range(n): train(epoch)`, where train() takes one optimizer step on the
whole graph. A call of a function that steps once, outside any loop of
its own, is one step: the epoch loop's iterations are the minibatches,
and the boundary goes first in its body. Before, --jit-checkpoint said
there was no loop over batches."""
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.py 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# DIAG-NOT: error
# CHECK: _detc_rt.jit.step(optimizer.step)()
# CHECK: for epoch in _detc_rt.hints.loop({{[0-9]+}}, 0, range(100)):
# CHECK-NEXT: _detc_rt.jit.boundary({{[0-9]+}}, {"model": lambda: model, "optimizer": lambda: optimizer,
import torch
import torch.nn.functional as F

torch.manual_seed(42)
features = torch.randn(50, 8)
labels = torch.randint(0, 3, (50,))
model = torch.nn.Sequential(torch.nn.Dropout(0.5), torch.nn.Linear(8, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)


def train(epoch):
    model.train()
    optimizer.zero_grad()
    loss = F.cross_entropy(model(features), labels)
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())


for epoch in range(100):
    train(epoch)

"""`--jit-checkpoint` puts the minibatch boundary in the training loop: the
first loop over batches whose iterations step an optimizer, directly or in
a function they call. Here (the shape of pytorch/examples'
word_language_model) `evaluate` comes first and its loop calls a helper
(`get_batch`) that steps nothing: that call does not make it the training
loop. `train`'s loop steps through `update`, a helper of its own."""
# RUN: detc transform %s --emit-python --jit-checkpoint | FileCheck %s
# CHECK: {{^}}def evaluate(source):
# CHECK-NOT: {{^[^#]*}}jit.boundary(
# CHECK: {{^ +}}_detc_rt.jit.step(optimizer.step)()
# CHECK: {{^}}def train():
# CHECK-NEXT: {{^ +}}for i in _detc_rt.hints.loop(
# CHECK-NEXT: {{^ +}}_detc_rt.jit.boundary(
import torch
import torch.nn.functional as F
from torch import nn

data = torch.randn(256, 4)
labels = torch.randint(0, 2, (256,))
model = nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
bs = 16


def get_batch(source, i):
    return source[i:i + bs], labels[i:i + bs]


def evaluate(source):
    total = 0.0
    with torch.no_grad():
        for i in range(0, len(source), bs):
            x, y = get_batch(source, i)
            total += float(F.cross_entropy(model(x), y))
    return total


def update(loss):
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def train():
    for i in range(0, len(data), bs):
        x, y = get_batch(data, i)
        update(F.cross_entropy(model(x), y))


for epoch in range(2):
    train()
    print(epoch, evaluate(data))

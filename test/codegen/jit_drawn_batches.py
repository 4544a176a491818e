"""A training loop whose batches no loader makes, in the shape of
nanoGPT's train.py: at module level, `while True:`, each batch cut from a
token array at offsets drawn from torch's generator (`get_batch`), the
next batch fetched at the end of the iteration, an optimizer step each
iteration, gradient accumulation in an inner loop that does not step.
The minibatch boundary goes first in the `while` body (the inner loop's
iterations are not minibatches); the batch fetched ahead, the counters
and the scaler are saved (torch's generator is, with every boundary).
Before, --jit-checkpoint said there was no loop over batches. A loop
that takes batches from a loader still wins over such a loop (see
jit_while_loop.py); the warm-up epoch loop before it, whose iterations
step only inside a loop of a function they call, is none (the CHECK-NOT
below)."""
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.py 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# DIAG-NOT: error
# CHECK: {{^}}for epoch in range(2):
# CHECK-NOT: jit{{[.]}}boundary
# CHECK: {{^}}X, Y = get_batch()
# CHECK: while _detc_rt.hints.entering({{[0-9]+}}) or (True):
# CHECK-NEXT: _detc_rt.jit.boundary({{[0-9]+}}, {"X": lambda: X, "Y": lambda: Y,
# CHECK-SAME: "iter_num": lambda: iter_num
# CHECK-SAME: "scaler": lambda: scaler
# CHECK: _detc_rt.jit.step(scaler.step)(opt)
# CHECK-NOT: jit{{[.]}}boundary
import torch
import torch.nn.functional as F

torch.manual_seed(1337)
data = torch.randint(0, 16, (400,))
block, batch = 8, 4
model = torch.nn.Sequential(torch.nn.Embedding(16, 8), torch.nn.Dropout(0.1),
                            torch.nn.Linear(8, 16))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
scaler = torch.cuda.amp.GradScaler(enabled=False)
accumulation = 2


def get_batch():
    ix = torch.randint(len(data) - block, (batch,))
    x = torch.stack([data[i:i + block] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block] for i in ix])
    return x, y


def warm_up_epoch(steps):
    # Steps only inside its loop: a call of it is not one step.
    for _ in range(steps):
        x, y = get_batch()
        F.cross_entropy(model(x).flatten(0, 1), y.flatten()).backward()
        opt.step()
        opt.zero_grad()


for epoch in range(2):
    warm_up_epoch(2)
X, Y = get_batch()
iter_num = 0
while True:
    for micro_step in range(accumulation):
        logits = model(X)
        loss = F.cross_entropy(logits.flatten(0, 1), Y.flatten())
        loss = loss / accumulation
        X, Y = get_batch()
        scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    opt.zero_grad(set_to_none=True)
    iter_num += 1
    if iter_num > 20:
        break

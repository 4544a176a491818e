"""A training loop at module level, as tutorials write it, for
just-in-time checkpointing (docs/jit.md): the model, the loader and two
generators are module variables. `noise` is drawn in every minibatch (detc
keys that draw: the boundary reads its state only at a failure); `jitter`
is drawn once per epoch by a plain call on the main thread (the boundary
copies its state). The step is written `zero_grad(); backward(); step()`
on one line, as tutorials do (replay's fast-forward guards each, so detc
splits the line). Same conventions as jit_train.py: `done E:S` after each
optimizer step, DETC_TEST_FAIL=PHASE:STEP (forward, backward, step, hang),
a checkpoint at the end of each epoch.

usage: jit_module_level.py [--epochs N] --out FILE
"""
import argparse
import os
import time

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

PHASE, _, AT = os.environ.get("DETC_TEST_FAIL", "").partition(":")
AT = int(AT) if AT else -1


def _fail_backward(grad):
    raise RuntimeError("injected failure in the backward")


parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--out", required=True)
args = parser.parse_args()

torch.manual_seed(0)
data = TensorDataset(torch.randn(192, 6), torch.randint(0, 3, (192,)))
loader = DataLoader(data, batch_size=16, shuffle=True, num_workers=2)
model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Dropout(0.2),
                      nn.Linear(24, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
noise = torch.Generator().manual_seed(1)
jitter = torch.Generator().manual_seed(2)
calls = 0
stepped = False
for epoch in range(args.epochs):
    scale = 0.1 * torch.rand(1, generator=jitter).item()
    for step, (x, y) in enumerate(loader):
        calls += 1
        x = x + scale * torch.empty_like(x).normal_(generator=noise)
        if calls == AT and PHASE == "forward":
            raise RuntimeError("injected failure in the forward")
        if calls == AT and PHASE == "hang":
            time.sleep(10 ** 6)
        out = model(x)
        if calls == AT and PHASE == "backward":
            out.register_hook(_fail_backward)
        loss = F.cross_entropy(out, y)
        optimizer.zero_grad(); loss.backward(); optimizer.step()
        if PHASE == "step" and calls >= AT and not stepped:
            stepped = True  # after the step updated the parameters
            raise RuntimeError("injected failure after the optimizer step")
        print("done %d:%d" % (epoch, step), flush=True)
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict(), "epoch": epoch},
               args.out)
print("trained", epoch + 1, "epochs")

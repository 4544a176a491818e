"""A training loop for just-in-time checkpointing (docs/jit.md): a model
with BatchNorm (the forward changes its running statistics before the
step) and dropout, SGD with momentum, a shuffled loader with workers, a
running loss total, a checkpoint at the end of each epoch; the loop is in
`train(model, loader, optimizer, ...)` called from `main`. It logs
`done E:S` after each optimizer step, which the failure-injection test
counts to measure the work a restart redoes.

DETC_TEST_FAIL=PHASE:STEP makes the minibatch with global number STEP fail
in PHASE: `forward` (an exception in the model's forward), `backward` (in
the backward pass), `step` (inside the optimizer step), `hang` (the
forward never returns). Only the first run of a trial sets it. A `step`
failure happens in the first optimizer step at or after minibatch STEP,
after the step has updated the parameters.

With --accum N the optimizer steps every N minibatches, gradients
accumulating over the minibatches between (a JIT checkpoint must hold
them).

With --device cuda the model and each minibatch live on the GPU (the
just-in-time checkpoints then hold CUDA tensors; test/e2e/cuda.py).

usage: jit_train.py [--workers N] [--epochs N] [--accum N] [--device D]
                    --out FILE
"""
import argparse
import os
import sys
import time

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

FAIL = os.environ.get("DETC_TEST_FAIL", "")
PHASE, _, AT = FAIL.partition(":")
AT = int(AT) if AT else -1


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 32)
        self.bn = nn.BatchNorm1d(32)
        self.drop = nn.Dropout(0.2)
        self.fc2 = nn.Linear(32, 3)
        self.calls = 0

    def forward(self, x):
        h = self.drop(F.relu(self.bn(self.fc1(x))))
        if self.training:
            self.calls += 1
            if self.calls == AT and PHASE == "forward":
                raise RuntimeError("injected failure in the forward")
            if self.calls == AT and PHASE == "hang":
                time.sleep(10 ** 6)
            if self.calls == AT and PHASE == "backward":
                h.register_hook(_fail_backward)
        return self.fc2(h)


def _fail_backward(grad):
    raise RuntimeError("injected failure in the backward")


class FailingSGD(torch.optim.SGD):
    def __init__(self, params, model, **kwargs):
        super().__init__(params, **kwargs)
        self.model = model

    def step(self, closure=None):
        # Fails after updating the parameters and the momentum: this
        # process's state is then no minibatch start.
        loss = super().step(closure)
        if PHASE == "step" and self.model.calls >= AT and \
                not getattr(self, "failed", False):
            self.failed = True
            raise RuntimeError("injected failure in the optimizer step")
        return loss


def train(model, loader, optimizer, epochs, accum, out, device):
    """The training loop in a function that gets the model, the loader and
    the optimizer as parameters (what a JIT checkpoint saves of them is
    restored through the parameters)."""
    history = []
    for epoch in range(epochs):
        total = 0.0
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device), y.to(device)
            loss = F.cross_entropy(model(x), y) / accum
            loss.backward()
            if (step + 1) % accum == 0:
                optimizer.step()
                optimizer.zero_grad()
            total += loss.item()
            print("done %d:%d" % (epoch, step), flush=True)
        history.append(total)
        torch.save({"model": model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "history": history, "epoch": epoch}, out)
    print("final", sum(history), file=sys.stderr)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--accum", type=int, default=1)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(256, 8), torch.randint(0, 3, (256,)))
    loader = DataLoader(data, batch_size=16, shuffle=True,
                        num_workers=args.workers)
    model = Net().to(args.device)
    optimizer = FailingSGD(model.parameters(), model, lr=0.05, momentum=0.9)
    train(model, loader, optimizer, args.epochs, args.accum, args.out,
          args.device)


if __name__ == "__main__":
    main()

"""A CheckHint-style program: nested loops with `_checkpoint()` hints and
`_iterations:` bounds (small, CPU).

`_checkpoint()` marks where a checkpoint may be taken and `_iterations: N`
gives a loop's trip count; both are no-ops when the script runs on its own
(the definition below), and detc's scheduler chooses which hint to use and
how often (`detc analyze --overhead=0.05`); `detc transform --overhead=…`
instruments that hint, with restart there (docs/checkhint.md).

A linear layer trained by hand-written SGD with momentum on random batches:
the state the loops carry is the parameters (rebound every step), the
momentum buffer (updated in place), the learning rate (decayed per epoch),
a history of norms, and torch's global generator.
"""
import argparse

import torch


def _checkpoint(label=None):
    """Checkpoint hint: does nothing unless detc schedules a checkpoint."""


def step(params, velocity, batch, lr):
    loss = ((batch @ params).tanh() ** 2).mean()
    grad, = torch.autograd.grad(loss, params)
    velocity.mul_(0.9).add_(grad)
    return (params - lr * velocity).detach().requires_grad_(True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--width", type=int, default=192)
    parser.add_argument("--out", default="checkhint_params.pt")
    args = parser.parse_args()

    torch.manual_seed(7)
    params = torch.randn(args.width, args.width, requires_grad=True)
    velocity = torch.zeros(args.width, args.width)
    lr = 0.05
    history = []
    for epoch in range(args.epochs):
        _iterations: 4
        for i in range(args.steps):
            _iterations: 300
            batch = torch.randn(64, args.width)
            params = step(params, velocity, batch, lr)  # detc: cost=0.001
            _checkpoint("step")
        lr = lr * 0.9
        history.append(float(params.norm()))
        _checkpoint("epoch")
    torch.save({"params": params.detach(), "velocity": velocity,
                "history": history}, args.out)
    print("final norm", history[-1])


if __name__ == "__main__":
    main()

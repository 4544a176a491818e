"""A CheckHint-style program: nested loops with `_checkpoint()` hints and
`_iterations:` bounds (tiny, CPU).

`_checkpoint()` marks where a checkpoint may be taken and `_iterations: N`
gives a loop's trip count; both are no-ops when the script runs on its own
(the two definitions below), and detc's scheduler chooses which hints to use.
"""
import argparse

import torch


def _checkpoint(label=None):
    """Checkpoint hint: does nothing unless detc schedules a checkpoint."""


def step(params, batch, lr):
    loss = ((params @ batch) ** 2).mean()
    grad, = torch.autograd.grad(loss, params)
    return (params - lr * grad).detach().requires_grad_(True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--out", default="checkhint_params.pt")
    args = parser.parse_args()

    torch.manual_seed(7)
    params = torch.randn(8, 8, requires_grad=True)
    lr = 0.01
    history = []
    for epoch in range(args.epochs):
        _iterations: 3
        for i in range(args.steps):
            _iterations: 20
            batch = torch.randn(8, 4)
            params = step(params, batch, lr)  # detc: cost=0.002
            _checkpoint("step")
        lr = lr * 0.9
        history.append(float(params.norm()))
        _checkpoint("epoch")
    torch.save(params.detach(), args.out)
    print("final norm", history[-1])


if __name__ == "__main__":
    main()

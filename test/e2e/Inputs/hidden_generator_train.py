"""A training step that draws noise from a generator object made through a
dynamic lookup (`getattr(torch, name)`), by a function `eval` makes that
holds it: detc's analysis cannot see the draw or the generator, so no
checkpoint saves the generator. (Given to the drawing call as an argument,
it was hidden too until session 61: code detc does not read may change
what it is given, and the generator is saved: unread_generator_train.py.) A resume
skips the steps that advanced it; the runtime's fingerprint check must
notice that `g` is not as it was and stop with exit 3 naming it, never
continue with other noise.

usage: hidden_generator_train.py [--epochs N] [--ckpt-every N] [--crash-after STEP]
        [--raise-at STEP]
        --out FILE
"""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--ckpt-every", type=int, default=0)
    parser.add_argument("--noise", default="randn")
    parser.add_argument("--generator", default="Generator")
    parser.add_argument("--crash-after", type=int, default=0)
    parser.add_argument("--raise-at", type=int, default=-1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(3)
    data = TensorDataset(torch.randn(64, 4), torch.arange(64) % 2)
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    g = getattr(torch, args.generator)().manual_seed(9)
    draw = eval("lambda shape: torch.%s(shape, generator=g)" % args.noise,
                {"torch": torch, "g": g})
    step = 0
    for epoch in range(args.epochs):
        for x, y in loader:
            if step == args.raise_at:
                raise RuntimeError("injected failure at step %d" % step)
            noisy = x + 0.1 * draw(x.shape)
            loss = F.cross_entropy(model(noisy), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            if args.ckpt_every and step % args.ckpt_every == 0:
                torch.save({"model": model.state_dict(),
                            "optimizer": optimizer.state_dict(),
                            "epoch": epoch, "step": step}, args.out)
            if step == args.crash_after:
                os._exit(1)  # a crash: the resume continues from here
    torch.save({"model": model.state_dict()}, args.out)


if __name__ == "__main__":
    main()

"""A training step that draws noise from a generator object through a
callee detc cannot trace (`getattr(torch, name)`), given the generator as
an argument: code detc does not read may change what it is given, so the
generator derives from the training and the checkpoint's sidecar saves its
state. The session-61 first binary saw no change of `g`: every resume
stopped with exit 3 at its fingerprint check (the safety net), never a
wrong result. After the training, draws from `g` show where it stands.

usage: unread_generator_train.py [--epochs N] [--ckpt-every N] --out FILE
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
    draw = getattr(torch, args.noise)
    step = 0
    for epoch in range(args.epochs):
        for x, y in loader:
            if step == args.raise_at:
                raise RuntimeError("injected failure at step %d" % step)
            noisy = x + 0.1 * draw(x.shape, generator=g)
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
    torch.save({"model": model.state_dict(),
                "after": draw((2,), generator=g)}, args.out)
    # Read after the last checkpoint too: a resume from it restores `g`.
    # (A generator nothing reads after a checkpoint is not saved with it,
    # and one the fingerprint finds changed there stops the resume with
    # exit 3: it cannot tell a dead generator from a hidden one.)
    print("next noise:", draw((2,), generator=g))


if __name__ == "__main__":
    main()

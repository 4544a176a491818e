"""A small training loop whose step 10 raises once (a file the first try
finds missing): the vaccinated script's crash barrier decides what then.
Used by hostile_runtime.py."""
import argparse
import os

import torch
import torch.nn as nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=16)
    parser.add_argument("--flag-file", default="")
    parser.add_argument("--out", default="flaky.pt")
    args = parser.parse_args()
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.ones(8, 4)
    for step in range(args.steps):
        if step == 10 and args.flag_file and not os.path.exists(
                args.flag_file):
            raise FileNotFoundError("missing " + args.flag_file)
        opt.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        opt.step()
    torch.save(model.state_dict(), args.out)
    print("done %.6f" % loss.item())


if __name__ == "__main__":
    main()

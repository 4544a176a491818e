"""A small loop over a shuffled DataLoader whose size comes from a flag;
`--fail-at N` raises in minibatch N once, so a just-in-time checkpoint is
written. Used by hostile_runtime.py: a restart with another --examples
must be refused, not continue with another order."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", type=int, default=64)
    parser.add_argument("--fail-at", type=int, default=-1)
    parser.add_argument("--out", default="jit_examples.pt")
    args = parser.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(args.examples, 4),
                         torch.randint(0, 2, (args.examples,)))
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        for step, (x, y) in enumerate(loader):
            if epoch * 100 + step == args.fail_at:
                raise RuntimeError("injected failure")
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
    torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()

"""Two shapes of real scripts `--jit-checkpoint` refused: a model a
factory of a local module builds (its constructor's `self` and the
factory's `net` were taken for variables live at the boundary), and an
evaluation function that assigns `hidden` under one branch and reads it
under another (pytorch/examples' word_language_model: liveness reaches
the function's entry, but a function that is not running at the boundary
has no locals there)."""
import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from models import make_net


def evaluate(model, loader, recurrent):
    model.eval()
    if recurrent:
        hidden = torch.zeros(2)
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            out = model(x)
            if recurrent:
                hidden = hidden + out.mean(0)
            total += float(F.cross_entropy(out, y))
    model.train()
    return total


def train(model, loader, optimizer):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--recurrent", action="store_true")
    args = parser.parse_args()
    data = TensorDataset(torch.randn(64, 4), torch.randint(0, 2, (64,)))
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model = make_net(8)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        train(model, loader, optimizer)
        print(epoch, evaluate(model, loader, args.recurrent))


main()

"""Input of hint_bounds.py: an epoch loop whose bound is a flag, a model
whose width is a flag, SGD with momentum; the hint is in the batch loop."""
import argparse

import torch
import torch.nn as nn


def _checkpoint(label=None):
    pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--width", type=int, default=16)
    args = parser.parse_args()
    torch.manual_seed(0)
    data = torch.randn(64, 8)
    target = torch.randn(64, 1)
    model = nn.Sequential(nn.Linear(8, args.width), nn.Tanh(),
                          nn.Linear(args.width, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(args.epochs):
        _iterations: 4
        for i in range(0, 64, 8):
            _iterations: 8
            opt.zero_grad()
            loss = ((model(data[i:i + 8]) - target[i:i + 8]) ** 2).mean()
            loss.backward()
            opt.step()
            _checkpoint("step")
    print("final", [p.detach().double().sum().item().hex()
                    for p in model.parameters()])


main()

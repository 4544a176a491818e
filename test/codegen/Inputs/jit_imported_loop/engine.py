import torch


def train(model, loader, opt):
    for x in loader:
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()

import torch


def noise():
    return torch.randn(4)


def flip(t):
    if torch.rand(1).item() < 0.5:
        return t.flip(0)
    return t

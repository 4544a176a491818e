import torch


def jitter(x):
    return x + 0.1 * torch.randn_like(x)

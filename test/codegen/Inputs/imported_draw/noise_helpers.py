import torch


def perturb(x, scale):
    return x + scale * torch.randn(x.shape)

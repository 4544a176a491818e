import torch

noise = torch.Generator().manual_seed(0)


def jitter(x):
    return x + torch.randn(x.shape, generator=noise)

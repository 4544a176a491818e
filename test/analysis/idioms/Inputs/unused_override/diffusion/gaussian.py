import torch
import torch.nn as nn


def default(val, d):
    if val is not None:
        return val
    return d() if callable(d) else d


def extract(a, t):
    return a.gather(-1, t)


class GaussianDiffusion(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.register_buffer("alphas", torch.linspace(0, 1, 10))

    def random_times(self, b):
        return torch.randint(0, 10, (b,)).long()

    def forward(self, x, times=None, noise=None):
        times = default(times, lambda: self.random_times(x.shape[0]))
        noise = default(noise, lambda: torch.randn_like(x))
        return self.model(x + noise) * extract(self.alphas, times)[:, None]

import torch

from pkg.core.registry import ALGORITHMS


@ALGORITHMS.register("noisy")
class Noisy:
    def __init__(self, loader):
        self.loader = loader
        self.model = torch.nn.Linear(1, 1)

    def train(self):
        for x in self.loader:
            self.model(x + torch.randn_like(x)).sum().backward()

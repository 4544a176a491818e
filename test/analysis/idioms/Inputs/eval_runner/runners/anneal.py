import torch
from torch.utils.data import DataLoader, TensorDataset

__all__ = ["AnnealRunner"]


class AnnealRunner:
    def __init__(self, args, config):
        self.args, self.config = args, config

    def train(self):
        net = torch.nn.Linear(4, 4)
        opt = torch.optim.Adam(net.parameters())
        loader = DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=4)
        for (x,) in loader:
            sigma = torch.rand(x.shape[0], 1)
            loss = (net(x + sigma * torch.randn_like(x)) - x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()

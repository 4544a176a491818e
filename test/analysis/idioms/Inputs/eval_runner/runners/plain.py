import torch
from torch.utils.data import DataLoader, TensorDataset

__all__ = ["PlainRunner"]


class PlainRunner:
    def __init__(self, args, config):
        self.args = args

    def train(self):
        net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.1))
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        loader = DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=4)
        for (x,) in loader:
            loss = net(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()

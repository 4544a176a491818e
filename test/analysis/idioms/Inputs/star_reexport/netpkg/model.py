import torch

from .layers import *
from .parts import *


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = Dropout(0.1)

    def forward(self, x):
        return self.head(self.block(x))


def test():
    print(Net()(torch.randn(2, 4)).shape)

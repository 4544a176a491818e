# torch's private tuple helpers (`from torch.nn.modules.utils import
# _pair, _single`, as KAIR's deformable convolutions import them) turn an
# int into a tuple of ints: nothing to report in the forward that calls
# them (before: a may-draw of "a name of 'torch' that no API table
# describes").
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: 0 warning(s)
import torch
from torch.nn.modules.utils import _pair, _single
from torch.utils.data import DataLoader, TensorDataset


class Conv(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.k = _pair(3)
        self.s = _single(1)

    def forward(self, x):
        return x * len(_pair(self.k[0]))


net = Conv()
for (x,) in DataLoader(TensorDataset(torch.zeros(8, 2)), batch_size=2):
    y = net(x)

# A bound method kept in an attribute and called there (VITS's FFN:
# `self.padding = self._same_padding` in __init__, `self.padding(x)` in
# forward) runs the method on the instance it is bound to. The call was
# lowered as an opaque call: the draw in the method was missed, silently.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s
# RUN: detc %s --python none | FileCheck %s --check-prefix=IR
# CHECK: bound_method_attributes.py:[[@LINE+24]]:34: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: note: reached through the call to 'FFN._same_padding' here
# CHECK: 1 warning(s)
# IR: detc.call @FFN::@_causal_padding bind {self = "self", x = "x"}
# IR: detc.call @FFN::@_same_padding bind {self = "self", x = "x"}
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class FFN(nn.Module):
    def __init__(self, causal=False):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.jitter = 0.1
        if causal:
            self.padding = self._causal_padding
        else:
            self.padding = self._same_padding

    def _causal_padding(self, x):
        return torch.nn.functional.pad(x, (1, 0))[..., :-1]

    def _same_padding(self, x):
        return x + self.jitter * torch.randn_like(x)

    def forward(self, x):
        return self.fc(self.padding(x))


model = FFN()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.ones(8, 4)), batch_size=2)
for (x,) in loader:
    loss = model(x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

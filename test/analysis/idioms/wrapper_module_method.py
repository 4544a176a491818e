# A method of the model called through its DDP/DataParallel wrapper's
# `.module` (VITS evaluates with `generator.module.infer(x)`, whose noise
# `torch.randn_like` is a draw): the wrapper's `.module` was a value detc
# could not trace, a may-draw naming 'net.module.infer' instead of the
# draw itself. The wrappers' tables now give their first parameter's name,
# `module`, which is the attribute that holds the wrapped model (the
# keyword `module=` worked before; a positional model did not).
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s
# CHECK: wrapper_module_method.py:[[@LINE+16]]:28: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}wrapper_module_method.py:[[@LINE+25]]:1
# CHECK: wrapper_module_method.py:[[@LINE+18]]:28: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}wrapper_module_method.py:[[@LINE+24]]:1
# CHECK-NOT: may draw
# CHECK: 2 warning(s)
import torch
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def infer(self, x):
        return self.fc(x + torch.randn_like(x))

    def sample(self, x):
        return self.fc(x * torch.rand_like(x))


loader = DataLoader(TensorDataset(torch.randn(64, 8)), batch_size=8)
net = DDP(Net())
dp = nn.DataParallel(module=Net())
for (x,) in loader:
    net.module.infer(x)
    dp.module.sample(x)

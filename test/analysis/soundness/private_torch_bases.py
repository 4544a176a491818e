# Private torch bases and functions real code uses, described in the
# tables: a synchronized BatchNorm copied into a project (CSAIL's semantic
# segmentation, SPADE: `class SyncBN(_BatchNorm)` with its own forward,
# reducing statistics through torch.nn.parallel._functions' autograd
# functions), and NVTX range markers around a training step (apex's
# ImageNet example). None draws: no may-draw. Before, every call of such a
# norm layer was "an instance whose base '..._BatchNorm' is a name of
# 'torch' that no API table describes" (23 findings in CSAIL's repository)
# and every range_push/range_pop one more (10 in apex's example). The
# dropout next to them is still found.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: private_torch_bases.py:[[@LINE+23]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: 1 warning(s)
import torch
import torch.nn.functional as F
from torch.nn.modules.batchnorm import _BatchNorm
from torch.nn.parallel._functions import Broadcast, ReduceAddCoalesced


class SyncBN(_BatchNorm):
    def forward(self, x):
        mean = x.mean(0)
        if x.is_cuda:
            (mean,) = ReduceAddCoalesced.apply(0, 1, mean)
            (mean,) = Broadcast.apply([0], mean)
        return F.batch_norm(x, self.running_mean, self.running_var,
                            self.weight, self.bias, self.training)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)
        self.bn = SyncBN(4)
        self.drop = torch.nn.Dropout(0.2)

    def forward(self, x):
        return self.drop(self.bn(self.fc(x)))


torch.manual_seed(0)
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(32, 4)
for i in range(0, 32, 8):
    if torch.cuda.is_available():
        torch.cuda.nvtx.range_push("step")
    loss = model(data[i:i + 8]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if torch.cuda.is_available():
        torch.cuda.nvtx.range_pop()

# A model wrapped in `nn.DataParallel` (TorchSSL's FixMatch, when no GPU
# index is given): its replicas run inside the training loop's batch, so
# the dropout it draws is reported in the loop's per-batch region. Before,
# the finding named the wrapper's own region, "the per-batch data-parallel
# region that starts at" the `nn.DataParallel(...)` line, where nothing is
# drawn.
# RUN: detc analyze %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        # CHECK: data_parallel_region.py:[[@LINE+1]]:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}data_parallel_region.py:[[@LINE+9]]:5
        return nn.functional.dropout(self.fc(x), 0.2, self.training)


def train(loader):
    model = nn.DataParallel(Net())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    # CHECK: note: the per-batch data-parallel region begins here
    # CHECK-NEXT: for x, y in loader:
    for x, y in loader:
        opt.zero_grad()
        (model(x) - y).pow(2).mean().backward()
        opt.step()


torch.manual_seed(0)
train(DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 1)),
                 batch_size=2))
# CHECK: 1 warning(s); unsafe generators (ERR): 'torch' (global)

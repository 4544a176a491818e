# FSDP2: `fully_shard(model)` shards the module in place and returns it
# (torch >= 2.4, torch.distributed.fsdp from 2.6). The model is the same
# object: its forward is the model's (the dropout below is found, in the
# loop's region), and a checkpoint of either restores both. Before, it was
# a name of torch no table described: every call on the model was a
# may-draw and its dropout unseen.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import torch
import torch.nn as nn
from torch.distributed.fsdp import fully_shard
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)
        # CHECK: fsdp2_fully_shard.py:[[@LINE+1]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}fsdp2_fully_shard.py:[[@LINE+13]]:1
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.fc(self.drop(x))


torch.manual_seed(0)
model = Net()
model = fully_shard(model)
model.to("cpu")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.randn(8, 4), torch.randn(8, 1))
for x, y in DataLoader(data, batch_size=2):
    opt.zero_grad()
    (model(x) - y).pow(2).mean().backward()
    opt.step()
torch.save(model.state_dict(), "model.pt")
# CHECK: 1 warning(s)

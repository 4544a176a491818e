# `nn.SyncBatchNorm.convert_sync_batchnorm(model)` converts the model in
# place and returns it (table key `returns=`): the converted model's
# forward is the model's, with its dropout. Before, the call was a name of
# torch no table describes, and `model.forward(x)` after it (Barlow Twins,
# MoCo, DINO) "may draw: calls code detc could not read". Handed the model
# through `**kwargs`, the result may be any argument it was given: still
# the model. apex's convert_syncbn_model does the same (SupContrast).
# RUN: detc analyze %s 2>&1 | FileCheck %s --implicit-check-not=may-draw
# CHECK: returns_argument.py:[[@LINE+13]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}returns_argument.py:[[#LOOP:]]:1
# CHECK: note: reached through the forward of 'model' here
# CHECK: note: reached through the forward of 'self.drop' here
# CHECK: 1 warning(s)
import apex
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.drop = nn.Dropout(0.5)
        self.bn = nn.BatchNorm1d(2)

    def forward(self, x):
        return self.bn(self.fc(self.drop(x)))


torch.manual_seed(0)
model = nn.SyncBatchNorm.convert_sync_batchnorm(Net())
other = nn.SyncBatchNorm.convert_sync_batchnorm(**{"module": Net()})
synced = apex.parallel.convert_syncbn_model(Net())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.randn(16, 4), batch_size=4,
                                     num_workers=2)
for x in loader:
    opt.zero_grad()
    (model.forward(x).sum() + other(x).sum() + synced(x).sum()).backward()
    opt.step()

# Idiom 10 (issue 17): `F.dropout(x, p, training=self.training)` follows the
# module's mode like a dropout module: in a forward of a model certainly in
# evaluation mode it draws nothing (also after `model.train(False)`); in
# training mode it is an unsafe per-batch draw. (Not yet: a user model put
# in evaluation mode inside a helper function, for modules and functional
# dropout alike.)
# RUN: detc analyze %s 2>&1 | FileCheck %s --check-prefix=EVAL
# EVAL: 0 warning(s); unsafe generators (ERR): none
# RUN: sed -e 's/^    model.eval()$/    pass/' %s > %t.train.py
# RUN: detc analyze %t.train.py 2>&1 | FileCheck %s --check-prefix=TRAIN
# TRAIN: train.py:[[@LINE+16]]:24: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# TRAIN: 1 warning(s)
# RUN: sed -e 's/^    model.eval()$/    model.train(False)/' %s > %t.off.py
# RUN: detc analyze %t.off.py 2>&1 | FileCheck %s --check-prefix=EVAL
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 1)

    def forward(self, x):
        return self.fc(F.dropout(x, 0.5, training=self.training))


model = Net()
val = DataLoader(TensorDataset(torch.randn(16, 4), torch.randn(16, 1)), batch_size=4)
for epoch in range(2):
    model.eval()
    with torch.no_grad():
        for x, y in val:
            model(x)

# Idiom 3 (issue 17): library calls with positional arguments, bound as
# CPython binds them through the API tables' signatures. The transform of
# `ImageFolder(root, train_tf)` (2nd positional) runs per example because
# the loader's workers are the 6th positional argument of
# `DataLoader(ds, 64, True, None, None, args.workers)`; `F.dropout(x, 0.2,
# False)` and `F.alpha_dropout(h, 0.1)` (training defaults to False) draw
# nothing; `F.dropout(h, 0.5, self.training)` draws per batch.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK: positional_args.py:[[@LINE+24]]:32: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}positional_args.py:[[@LINE+45]]:5
# CHECK: note: reached through the forward of 'loader.dataset.transform' here
# CHECK: positional_args.py:[[@LINE+23]]:32: warning: generator 'torch' (global) is used inside the per-example data-parallel region
# CHECK: positional_args.py:[[@LINE+36]]:24: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}positional_args.py:[[@LINE+42]]:5
# CHECK-NOT: warning
# CHECK: 3 warning(s); unsafe generators (ERR): 'torch' (global)
# A `*sizes` before the workers' position: the count is unknown (possibly
# parallel), never taken from the wrong argument or assumed absent.
# RUN: sed -e 's/DataLoader(train_set, 64, True, None, None, args.workers)/DataLoader(train_set, *sizes, 0)/' %s > %t.star.py
# RUN: detc analyze %t.star.py 2>&1 | FileCheck %s --check-prefix=STAR
# STAR: 3 warning(s); unsafe generators (ERR): 'torch' (global)
import argparse

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

parser = argparse.ArgumentParser()
parser.add_argument("data")
parser.add_argument("-j", "--workers", type=int, default=4)
args = parser.parse_args()

train_tf = transforms.Compose([transforms.RandomResizedCrop(224),
                               transforms.RandomHorizontalFlip(),
                               transforms.ToTensor()])
train_set = datasets.ImageFolder(args.data, train_tf)
loader = DataLoader(train_set, 64, True, None, None, args.workers)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3 * 224 * 224, 10)

    def forward(self, x):
        h = F.dropout(x.flatten(1), 0.2, False)
        h = F.alpha_dropout(h, 0.1)
        return self.fc(F.dropout(h, 0.5, self.training))


model = Net()
opt = torch.optim.SGD(model.parameters(), 0.1)
for epoch in range(2):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

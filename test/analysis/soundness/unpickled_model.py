# A model saved whole (`torch.save(model, path)`) and loaded back is an
# object of whatever classes were pickled: calling it, or a method of it
# no library type has, runs code detc cannot see. Both were silent (the
# value counted as `torch.load`'s, which the tables describe); a method's
# result (`.get("model")`) is unpickled too. `.to()` and `.train()`
# outside the loop, and names a library type has (`.float()`), are not
# findings.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import sys

import torch
from torch.utils.data import DataLoader, TensorDataset

model = torch.load(sys.argv[1]).to("cpu")
model.train()
teacher = torch.load(sys.argv[2]).get("model")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
# CHECK-DAG: .py:[[@LINE+1]]:1: note: the per-batch data-parallel region begins here
for x, in DataLoader(TensorDataset(torch.randn(8, 3)), batch_size=2):
    opt.zero_grad()
    # CHECK-DAG: .py:[[@LINE+2]]:11: warning: may draw: 'model' calls code detc could not read, inside the per-batch data-parallel region
    # CHECK-DAG: .py:[[@LINE+1]]:11: note: 'model' is an object unpickled by 'torch.load' (a model saved whole with torch.save, say): what it runs is the pickled classes' code, which detc cannot see
    out = model(x.float())
    # CHECK-DAG: .py:[[@LINE+1]]:14: warning: may draw: 'teacher.distill' calls code detc could not read
    target = teacher.distill(x)
    ((out - target) ** 2).sum().backward()
    opt.step()
# CHECK: 2 warning(s)

# A random call in a batch region that detc has no keyed version of is an
# error naming the call and its line, and nothing is written: detc never
# emits a script that is silently still nondeterministic.
# RUN: rm -f %t.out
# RUN: not detc transform %s --emit-python -o %t.out 2>&1 | FileCheck %s
# RUN: not test -e %t.out
# CHECK: unrewritable.py:[[@LINE+8]]:12: error: cannot make the random call '*.exponential_' (generator 'torch' (global)) deterministic inside a batch region: detc has no per-example keyed version of it [detc-unrewritable]
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.rand(8, 3)), batch_size=4)
for (x,) in loader:
    w = x.softmax(1)
    pick = w.exponential_()

# The points-to analysis makes the constraints of a module's function when
# it may run: when the program calls it, when library code is given it (a
# DataLoader's collate_fn: a closure made by a helper), when its class is
# instantiated. A package's functions nobody calls cost nothing (timm's
# train.py imports a zoo of a thousand model builders: its points-to took
# 130 s and 5 GB and stopped at its limit; it takes 1.5 s and 123 MB).
# RUN: detc analyze --python none %s --path %S/Inputs/reachable_pkg 2>&1 | FileCheck %s --implicit-check-not=warning:
import torch
from torch.utils.data import DataLoader, TensorDataset

from zoo import flip, make_collate, noise

loader = DataLoader(TensorDataset(torch.randn(8, 3)), batch_size=2,
                    collate_fn=make_collate([flip, noise]), num_workers=2)
# CHECK-DAG: zoo.py:19:20: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}reachable_functions.py:[[@LINE+4]]:1
# The noise is found through the closure's list (without its body: "may
# draw: 'aug' calls code detc could not read").
# CHECK-DAG: zoo.py:12:16: warning: generator 'torch' (global) is used inside the per-example data-parallel region
for x in loader:
    y = x.sum()
# CHECK: 2 warning(s)

# A module of the program's own package that is not there (SPADE's
# models/networks/sync_batchnorm, a git submodule not checked out): its
# import is unresolved, a call of what it defines may draw, and the note
# names that module in full. It named the package's top-level name as a
# library detc could not find ("module 'pkg'").
# RUN: rm -rf %t.dir && cp -r %S/Inputs/missing_package %t.dir
# RUN: cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s
# CHECK: pkg/trainer.py:4:{{[0-9]+}}: warning: cannot resolve import 'pkg.sync_batchnorm'
# CHECK: pkg/trainer.py:12:16: warning: may draw: 'self.model' calls code detc could not read
# CHECK: note: 'self.model' is module 'pkg.sync_batchnorm' of the program's package 'pkg', which detc could not find (its import is unresolved)
import torch
from torch.utils.data import DataLoader, TensorDataset

from pkg.trainer import Trainer

trainer = Trainer()
for (x,) in DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2):
    trainer.step(x)

# Idiom 5 (issue 17): a training script whose pieces come from a star
# import of a local module (`from train_utils import *`: the dataset whose
# __getitem__ draws from `random`, the loader factory, the worker count),
# from a package re-exporting a submodule's function (`from vision_pkg
# import make_model`: the model's dropout), and from a module found through
# a constant `sys.path.insert` (the numpy jitter, called per batch). All
# three are found, each at its own file and line.
# RUN: cp -r %S/Inputs/star_pkg %t.dir && cp %s %t.dir/star_imports.py
# RUN: detc analyze %t.dir/star_imports.py 2>&1 | FileCheck %s
# CHECK-DAG: train_utils.py:21:17: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}star_imports.py:[[@LINE+19]]:5
# CHECK-DAG: model_utils.py:5:58: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}star_imports.py:[[@LINE+18]]:5
# CHECK-DAG: jitter.py:5:16: warning: generator 'np.random' (global) is used inside the per-batch data-parallel region that starts at {{.*}}star_imports.py:[[@LINE+17]]:5
# CHECK: 3 warning(s)
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "extra"))

from jitter import jitter  # noqa: E402
from train_utils import *  # noqa: E402,F403
from vision_pkg import make_model  # noqa: E402

model = make_model(16)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = make_loader(Shifted(), WORKERS)  # noqa: F405
for epoch in range(2):
    for x, y in loader:
        opt.zero_grad()
        torch.nn.functional.cross_entropy(model(jitter(x)), y).backward()
        opt.step()

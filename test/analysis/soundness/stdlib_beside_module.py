# An absolute import from a module in a subfolder finds what CPython
# finds: the importer's folder is not on sys.path, so `from logging import
# getLogger` in src/utils/dist.py is the standard library's, not the
# project's src/utils/logging.py beside it (facebookresearch/ijepa: every
# `logger.info` of its modules was "may draw: a value detc cannot trace",
# the project's module having no getLogger). A module next to the script
# is first on sys.path and does shadow the standard library (colorsys.py
# here, whose draw is found). The same without an interpreter to ask
# (`--python none`): the standard library's names come from detc's table
# (pycls's pycls/core/logging.py, whose `import logging` was taken for
# itself: its `logger.info` was a may-draw in every training loop).
# RUN: rm -rf %t.dir && cp -r %S/Inputs/stdlib_beside %t.dir
# RUN: cp %s %t.dir/train.py
# RUN: detc analyze %t.dir/train.py --python %python 2>&1 | FileCheck %s --implicit-check-not=warning:
# RUN: detc analyze %t.dir/train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: colorsys.py:6:16: warning: generator 'random' (global) is used inside the per-batch data-parallel region
# CHECK: 1 warning(s)
import colorsys

import torch
from torch.utils.data import DataLoader, TensorDataset

from src.utils.dist import init

torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2)
for step, (x,) in enumerate(loader):
    init(step)
    print(colorsys.jitter(x))

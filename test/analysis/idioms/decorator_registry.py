# A registry of algorithm classes in the shape of Microsoft's USB
# (semi-supervised learning): each algorithm module registers its class
# with a decorator (`@ALGORITHMS.register("noisy")`, a bound method whose
# result is a lambda that stores the class through the registry's
# `__setitem__`), the modules are imported by names built from a constant
# table (`for base, names in ALL_MODULES: import_module(base + "." +
# name)`), that import runs in a package's `__init__.py` which only
# importing one of the package's modules executes, and the script looks
# the class up by a name from the command line (`ALGORITHMS[name]`). Each
# step was silent before: a package's `__init__` did not run for its
# submodules' imports, a decorator of the program's was not called, and
# the loop variables' names were unknown (USB: "modules imported by name
# at run time are unknown", no finding).
# RUN: rm -rf %t.dir && cp -r %S/Inputs/decorator_registry %t.dir
# RUN: mkdir %t.dir/.git && cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: pkg/algs/noisy.py:14:28: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-DAG: pkg/algs/plain.py:11:42: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: 2 warning(s)
import sys

import torch
from torch.utils.data import DataLoader

from pkg.algs import get_algorithm

torch.manual_seed(0)
loader = DataLoader(torch.arange(8.0)[:, None], batch_size=2)
algorithm = get_algorithm(sys.argv[1] if len(sys.argv) > 1 else "noisy",
                          loader)
algorithm.train()

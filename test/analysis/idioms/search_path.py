# Idiom 5 (issue 17): a local module found through --path (and PYTHONPATH),
# not next to the script: its draws are found; without the path the import
# is a warning naming where detc looked, and nothing is found.
# RUN: detc analyze %s --path %S/Inputs/common 2>&1 | FileCheck %s
# RUN: env PYTHONPATH=%S/Inputs/common detc analyze %s 2>&1 | FileCheck %s
# CHECK: cifar_data.py:9:21: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}search_path.py:[[@LINE+12]]:1
# CHECK: 1 warning(s); unsafe generators (ERR): 'torch' (global)
# RUN: detc analyze %s 2>&1 | FileCheck %s --check-prefix=NOPATH
# NOPATH: search_path.py:[[@LINE+6]]:24: warning: cannot resolve import 'cifar_data': not a local module nor a library detc models
# The last folder is the project's (detc's checkout: its .git).
# NOPATH: search_path.py:[[@LINE+4]]:24: note: looked for it in {{.*}}idioms, {{[^,]+$}}
# NOPATH: 0 warning(s); unsafe generators (ERR): none
import torch

from cifar_data import make_loader

model = torch.nn.Linear(3072, 10)
for x, y in make_loader("data", 4):
    model(x.flatten(1))

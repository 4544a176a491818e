# The `lib/` layout of detection, pose-estimation and robustness projects
# (Detectron, HRNet, fast_adversarial's ImageNet): `import init_paths`, a
# helper often left out of the repository, puts `lib/` on sys.path; the
# script's `from augment import *` and `from validation import ...` are
# lib/'s modules. Before, both were unresolved: the transform's draw was
# missed and every call of the validation was a may-draw of unknown code.
# The validation's attack takes gradients with respect to its input
# (`torch.autograd.grad`) with the model in evaluation mode on purpose: its
# loop steps no optimizer, so it is not a training loop and its forwards
# are not "left in evaluation mode" (three false lints before).
# RUN: rm -rf %t.dir && cp -r %S/Inputs/lib_layout %t.dir
# RUN: mkdir %t.dir/.git && cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: train.py:[[@LINE+8]]:8: warning: cannot resolve import 'init_paths'
# CHECK-DAG: lib/augment.py:6:27: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at train.py:[[@LINE+31]]:5
# CHECK-DAG: lib/validation.py:8:17: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at lib/validation.py:7:5
# CHECK: 2 warning(s)
import torch
import torch.nn as nn
import torch.utils.data as data

import init_paths  # noqa: F401  (puts lib/ on sys.path)
from augment import *
from validation import validate_attack


class Points(data.Dataset):
    """Sixteen points in 3-D, each labelled by its parity."""

    def __init__(self, jitter):
        self.points = [torch.full((3,), float(i)) for i in range(16)]
        self.jitter = jitter

    def __getitem__(self, i):
        return self.jitter(self.points[i]), i % 2

    def __len__(self):
        return len(self.points)


model = nn.Linear(3, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = data.DataLoader(Points(Jitter()), batch_size=4, num_workers=2)
for epoch in range(2):
    model.train()
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    validate_attack(model, loader, 0.1)

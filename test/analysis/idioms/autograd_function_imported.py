# Custom autograd functions of a package, as pytorch-randaugment's
# shake-shake networks write them (RandAugment/networks/shakeshake/):
# the script lies inside the package, which imports its own modules by
# the package's name (`from shakes.fn import Shake` in shakes/model.py).
#  - `Shake.apply(...)` on the class imported from the program's module
#    was taken for a name of a library called `shakes` ("may draw: code
#    detc could not read", the draw unseen; with the module a plain
#    `fn.py` next to the script, the same);
#  - the `backward` autograd calls in the backward pass draws too: it is
#    analysed as called where `apply` is (both draws of Shake, and Drop's,
#    reached through an alias of `apply`, are found).
# RUN: rm -rf %t.dir && cp -r %S/Inputs/autograd_package %t.dir
# RUN: cp %s %t.dir/shakes/train.py
# RUN: cd %t.dir && detc analyze shakes/train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: fn.py:7:17: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at shakes/train.py:[[LOOP:[0-9]+]]:1
# CHECK-DAG: fn.py:12:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at shakes/train.py:[[LOOP]]:1
# CHECK-DAG: fn.py:23:23: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at shakes/train.py:[[LOOP]]:1
# CHECK: 3 warning(s)
import torch
from torch.utils.data import DataLoader, TensorDataset

from shakes.model import Block

torch.manual_seed(0)
model = Block()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2,
                    num_workers=2)
for (x,) in loader:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

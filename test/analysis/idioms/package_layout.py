# Local packages laid out as real projects lay them out:
#  - a package that re-exports its submodules' functions with relative
#    imports (`from .train_utils import train` in utils/__init__.py, as
#    pytorch/examples' FSDP example writes it): the submodule is
#    `utils.train_utils`, as CPython names it (it was `train_utils`, so
#    `utils.train` named nothing and the training loop was never seen);
#  - a submodule used as an attribute of its package (`dnnlib.util.jitter`
#    after `import dnnlib`, whose __init__.py imports `.util`; StyleGAN2):
#    importing a submodule binds it on the package;
#  - a folder without __init__.py (a namespace package, PEP 420) imported
#    from (`from training import loop`): it is part of the program, not a
#    library whose draws the transform must guard against; and a module
#    of it importing its neighbour relatively (`from . import augment`,
#    the torchvision references a YOLOv4 project copies into
#    `tool/tv_reference/`), which was an import detc could not resolve.
# Each draw is found at its own file and line; before, the first was not
# seen at all and the second was "may draw: code detc could not read".
# RUN: rm -rf %t.dir && cp -r %S/Inputs/package_layout %t.dir
# RUN: cp %s %t.dir/package_layout.py
# RUN: detc analyze %t.dir/package_layout.py 2>&1 | FileCheck %s
# RUN: detc %t.dir/package_layout.py | FileCheck %s --check-prefix=IR
# The namespace package is the program's, not an import detc cannot read.
# IR: detc.unread_imports = []
# CHECK-NOT: cannot resolve import
# CHECK-NOT: may draw
# CHECK-DAG: train_utils.py:6:17: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}train_utils.py:5:5
# CHECK-DAG: util.py:9:22: warning: generator 'np.random' (global) is used inside the per-batch data-parallel region that starts at {{.*}}loop.py:7:5
# CHECK-DAG: augment.py:5:25: warning: generator 'random' (global) is used inside the per-batch data-parallel region that starts at {{.*}}loop.py:7:5
# CHECK: 3 warning(s)
import torch
from torch.utils.data import DataLoader, TensorDataset
from training import loop
from utils import train, world_size

data = TensorDataset(torch.randn(16, 4), torch.randn(16, 2))
model = torch.nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(data, batch_size=4 * world_size(), num_workers=2)
train(model, loader, opt)
loop.run(model, loader)

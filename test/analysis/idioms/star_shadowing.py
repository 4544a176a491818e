# `from torchvision.transforms import *` then `from .transforms import *`
# (ResNeSt's transforms/build.py): the program's `Lighting` is what Python
# binds, though a wildcard entry of the torchvision tables claims every
# name under torchvision.transforms. Before, an early lowering pass made
# `Lighting(0.1)` a torchvision layer and a later one the program's class:
# the Compose then referred to a build no pass kept, and detc stopped with
# "internal error: 'detc.forward' op refers to unknown build". Now the
# program's class is called, and its draw is found.
# RUN: detc analyze %s --path %S/Inputs 2>&1 | FileCheck %s --implicit-check-not=error:
# CHECK-DAG: mytf.py:6:17: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}star_shadowing.py:[[#LOOP:]]:1
# CHECK-DAG: build.py:8:9: warning: generator 'torch' (global) is used inside the per-example data-parallel region
# CHECK: 2 warning(s)
import torchvision
from torch.utils.data import DataLoader

from star_shadow.build import imagenet

dataset = torchvision.datasets.FakeData(size=8, transform=imagenet())
for x, y in DataLoader(dataset, batch_size=4, num_workers=2):
    pass

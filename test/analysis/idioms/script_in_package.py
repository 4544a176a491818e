# A training script inside its own package, run from the package's folder
# (PyTorch-YOLOv3's `pytorchyolo/train.py` imports `pytorchyolo.models`;
# with no pyproject.toml or .git above, nothing else says where the
# project is). The package's parent is where its absolute imports are
# found; from the folder detc runs in, that is `..`, which the walk up
# from `.` never reached: the import was unresolved and the model's
# dropout silent.
# RUN: rm -rf %t.dir && mkdir %t.dir && cp -r %S/Inputs/script_in_package/detector %t.dir/
# RUN: cp %s %t.dir/detector/train.py
# RUN: cd %t.dir/detector && detc analyze train.py 2>&1 | FileCheck %s
# CHECK-NOT: cannot resolve import
# CHECK: ../detector/models.py:9:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+8]]:1
# CHECK: 1 warning(s)
import torch
from torch.utils.data import DataLoader, TensorDataset

from detector.models import Head

model = Head()
for (x,) in DataLoader(TensorDataset(torch.zeros(8, 4)), batch_size=2):
    model(x).sum().backward()

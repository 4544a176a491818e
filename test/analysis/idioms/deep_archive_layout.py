# A script two folders below its project's package, in a copy with no
# folder marked as the project's (torchdistill's
# examples/torchvision/image_classification.py importing `torchdistill`,
# which its users pip-install from the repository). The nearest folder
# above the script holding a package of that name is searched: the
# dataset's draw is found. Before, the import was unresolved and every
# call into the package "may draw". Copied outside the repository, whose
# .git would mark its own folder.
# RUN: d=$(mktemp -d) && cp -r %S/Inputs/archive_layout/posekit "$d" && mkdir -p "$d/examples/vision" && cp %s "$d/examples/vision/train.py" && cd "$d/examples/vision" && detc analyze --python none train.py > %t.out 2>&1; rm -rf "$d"
# RUN: FileCheck %s < %t.out
# CHECK-NOT: cannot resolve import
# CHECK: posekit/datasets.py:12:17: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at train.py:[[#LOOP:]]:1
# CHECK: 1 warning(s)
import torch
from torch.utils.data import DataLoader

from posekit.datasets import Joints

model = torch.nn.Linear(4, 2)
for x in DataLoader(Joints(), batch_size=2, num_workers=2):
    model(x)

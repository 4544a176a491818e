# A script in a subfolder of a project with no folder marked as the
# project's (no pyproject.toml, setup.py, setup.cfg or .git: an archive
# downloaded from GitHub) imports the project's package at the top, which
# its `import _init_paths` puts on sys.path through a helper function
# (bearpaw/pytorch-pose's example/main.py importing `pose`). The folder
# above the script's is searched last: the dataset's draw is found (the
# import was unresolved, the draw silent). Copied outside the repository,
# whose .git would mark its own folder.
# RUN: d=$(mktemp -d) && cp -r %S/Inputs/archive_layout/. "$d" && cp %s "$d/example/train.py" && cd "$d/example" && detc analyze train.py > %t.out 2>&1; rm -rf "$d"
# RUN: FileCheck %s < %t.out
# CHECK-NOT: cannot resolve import
# CHECK: posekit/datasets.py:12:17: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at train.py:[[#LOOP:]]:1
# CHECK: 1 warning(s)
import torch
from torch.utils.data import DataLoader

import _init_paths  # noqa: F401
from posekit.datasets import Joints

model = torch.nn.Linear(4, 2)
for x in DataLoader(Joints(), batch_size=2, num_workers=2):
    model(x)

# A dataset class picked by a name that eval() computes, as HRNet's pose
# estimation picks it: `eval('dataset.' + cfg.DATASET.DATASET)(...)`,
# with `dataset` the program's package re-exporting `coco` and `mpii`. The
# string is the package's name and then any name it defines: each class
# it may be is constructed and its draws are per-example draws (before:
# an unknown construct, and the dataset one detc could not see: a
# may-draw naming none of the half-body, flip and scale draws).
# RUN: rm -rf %t.dir && cp -r %S/Inputs/eval_factory %t.dir
# RUN: mkdir %t.dir/.git && cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: dataset/joints.py:16:17: warning: generator 'np.random' (global) is used inside the per-example data-parallel region that starts at train.py:[[@LINE+16]]:1
# CHECK-DAG: dataset/joints.py:22:16: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at train.py:[[@LINE+15]]:1
# CHECK: 2 warning(s)
import argparse

import torch
from torch.utils.data import DataLoader

import dataset

parser = argparse.ArgumentParser()
parser.add_argument("--dataset", default="coco")
args = parser.parse_args()

train_dataset = eval("dataset." + args.dataset)(".", transform=None)
loader = DataLoader(train_dataset, batch_size=2, num_workers=2)
for x in loader:
    pass

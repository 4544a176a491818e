# A model picked by a dotted name that eval() computes, in the shape of
# HRNet's (classification, segmentation, pose): `eval('models.' +
# config.MODEL.NAME + '.get_cls_net')(config)`, with `models` the program's
# package. The string is a name whose middle is unknown: the attribute
# `get_cls_net` of each module of that package, and each model it builds
# is analysed (before: an unknown construct, and the model's every call a
# may-draw of code detc could not read). An eval detc cannot read as a
# name of the program's stays an unknown construct.
# RUN: rm -rf %t.dir && cp -r %S/Inputs/eval_factory %t.dir
# RUN: mkdir %t.dir/.git && cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: models/cls_hrnet.py:8:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+20]]:1
# CHECK-DAG: models/cls_plain.py:10:36: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+19]]:1
# CHECK-DAG: train.py:[[@LINE+15]]:9: warning: 'eval' of a computed string runs code detc cannot see
# CHECK: 2 warning(s)
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

import models

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="cls_hrnet")
parser.add_argument("--scale", default="1.0")
args = parser.parse_args()

model = eval("models." + args.arch + ".get_cls_net")(None)
scale = eval(args.scale)
loader = DataLoader(TensorDataset(torch.zeros(8, 4)), batch_size=2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for (x,) in loader:
    opt.zero_grad()
    (scale * model(x)).sum().backward()
    opt.step()

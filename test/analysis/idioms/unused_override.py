# A package's subclass the script never instantiates, whose override
# hands a lambda to a helper its base shares (lucidrains' diffusion
# package: `default(val, d)` calls `d()`; LearnedGaussianDiffusion's
# `lambda: self.model(x, t)` is never made when only GaussianDiffusion
# is built). Before, the lowering gathered that lambda into `d` and then
# called it from every `default(...)` in the region: "may draw:
# 'self.model' calls code detc could not read", with `self` of a method
# that never runs. Now a function or lambda defined in a function that
# never runs is made by nothing (the points-to's Frame::ran), and the
# base's own lambdas still draw.
# RUN: rm -rf %t.dir && cp -r %S/Inputs/unused_override %t.dir
# RUN: cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: gaussian.py:22:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+11]]:1 [detc-unsafe-rng]
# CHECK-DAG: gaussian.py:26:40: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+10]]:1 [detc-unsafe-rng]
# CHECK: 2 warning(s)
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from diffusion import GaussianDiffusion

loader = DataLoader(TensorDataset(torch.randn(64, 8)), batch_size=8)
diffusion = GaussianDiffusion(nn.Linear(8, 8))
for (x,) in loader:
    diffusion(x).sum().backward()

# A model built by a name picked from a module's globals with keyword
# arguments only (I-JEPA: `vit.__dict__[model_name](img_size=[crop_size],
# patch_size=patch_size)`), where the module imports functools.partial:
# `partial(img_size=..., patch_size=...)` raises TypeError (the function
# to bind is positional), so partial is no candidate that returns. It was
# "a functools.partial of something detc cannot trace", and the encoder's
# forward in the loop a may-draw finding beside its dropout.
# RUN: detc analyze --python none %s --path %S/Inputs/vit_zoo 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: vit.py:15:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}dynamic_lookup_partial.py:[[@LINE+18]]:1
# CHECK: 1 warning(s)
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

import vit

parser = argparse.ArgumentParser()
parser.add_argument("--model-name", default="vit_tiny")
args = parser.parse_args()

torch.manual_seed(0)
encoder = vit.__dict__[args.model_name](img_size=8, patch_size=2)
opt = torch.optim.SGD(encoder.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(16, 8), torch.randn(16, 2)),
                    batch_size=4)
for x, y in loader:
    loss = (encoder(x) - y).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

# An absolute import in a module of a subfolder finds what CPython finds
# first: the script's folder (sys.path[0]) before the importer's own.
# FastSpeech2's utils/model.py does `from model import FastSpeech2`, meaning
# the package model/ beside the script; detc took utils/model.py itself
# (the importer's folder came first), bound nothing, and the model's
# dropout was a may-draw of "a model made where detc cannot see" instead
# of the draw it is.
# RUN: rm -rf %t.dir && cp -r %S/Inputs/package_beside %t.dir
# RUN: cp %s %t.dir/train.py
# RUN: detc analyze %t.dir/train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: model{{/|\\}}net.py:7:52: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}train.py:[[@LINE+9]]:1
# CHECK: 1 warning(s)
import torch
from torch.utils.data import DataLoader, TensorDataset

from utils.model import get_model

model = get_model()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, in DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

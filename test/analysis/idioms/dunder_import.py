# A model module chosen by a name the user gives, loaded with the builtin
# `__import__`, in the shape of BigGAN's `model = __import__(config['model'])`
# then `G = model.Generator(**config)`: as with importlib.import_module,
# the module may be any of the program's that define the attribute read
# from it (both Generators here), and each is analysed (before: the
# builtin's result was nothing at all, the generators were never reached,
# and their draws were silent). The name may also be a module detc cannot
# see: calls of what it gives stay may-draws, and the builtin an unknown
# construct.
# RUN: rm -rf %t.dir && cp -r %S/Inputs/dunder_import %t.dir
# RUN: mkdir %t.dir/.git && cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: BigNet.py:11:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+19]]:1
# CHECK-DAG: DeepNet.py:11:36: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+18]]:1
# CHECK-DAG: train.py:[[@LINE+13]]:9: warning: '__import__' changes the program in ways detc cannot see
# CHECK-DAG: train.py:[[@LINE+17]]:12: warning: may draw: 'G' calls code detc could not read
# CHECK: 3 warning(s)
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="BigNet")
args = parser.parse_args()
config = vars(args)

model = __import__(config["model"])
G = model.Generator(width=4)
optimizer = torch.optim.SGD(G.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.zeros(8, 4)), batch_size=2)
for (z,) in loader:
    loss = G(z).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

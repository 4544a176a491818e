# A loop over what a method of a library's object returned, a library
# detc does not read and no table describes (`loader =
# engine.wrap_loader(loader)`, as Lightning Fabric's `setup_dataloaders`
# was before its table): the value is one that code returned, of a type
# detc does not know, so a loop over it that trains is a batch loop. Its
# draw is found, and the model's forward through the engine's wrapper may
# draw. Before, the result was a value of no library: the loop was no
# batch loop and nothing in it was reported.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import torch
# CHECK: library_method_result_loop.py:[[@LINE+1]]:22: warning: cannot resolve import 'trainkit'
from trainkit import Engine
from torch.utils.data import DataLoader, TensorDataset

engine = Engine(devices=1)
model = engine.wrap_model(torch.nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
# (The loader given to code detc does not read: its examples may be made
# there.)
# CHECK-DAG: library_method_result_loop.py:[[@LINE+1]]:10: warning: may draw: 'engine.wrap_loader' calls code detc could not read
loader = engine.wrap_loader(
    DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 1)), batch_size=2))
for x, y in loader:
    # CHECK-DAG: library_method_result_loop.py:[[@LINE+1]]:9: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}library_method_result_loop.py:[[@LINE-1]]:1
    x = torch.randn_like(x) * 0.01 + x
    opt.zero_grad()
    # CHECK-DAG: library_method_result_loop.py:[[@LINE+1]]:6: warning: may draw: 'model' calls code detc could not read
    (model(x) - y).pow(2).mean().backward()
    opt.step()
# CHECK: 3 warning(s)

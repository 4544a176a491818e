# A model package that star-imports its parts (milesial/Pytorch-UNet:
# unet_model.py does `from .unet_parts import *` and derives from
# `nn.Module`, the `nn` unet_parts imported): the star import re-exports
# the parts' own imports, also a library's names star-imported there.
# The points-to bound such names as builtins shared by every module, so
# the lowering did not know `nn.Module` in model.py: Net was no model,
# `model(x)` a plain call of nothing, the dropouts were not found and the
# optimizer built over `model` was said to train nothing the loop runs
# ("the training loop's forward runs `criterion`").
# RUN: rm -rf %t.dir && cp -r %S/Inputs/star_reexport %t.dir
# RUN: cp %s %t.dir/star_reexport.py
# RUN: detc analyze %t.dir/star_reexport.py 2>&1 | FileCheck %s
# The script's own test(), defined after the star import, is the one it
# calls (not also netpkg.model's: was so once star imports re-exported).
# RUN: detc %t.dir/star_reexport.py | FileCheck %s --check-prefix=IR
# IR-NOT: detc.call @netpkg.model.test
# IR: detc.call @test
# IR-NOT: detc.call @netpkg.model.test
# CHECK-NOT: optimizer-not-on-model
# CHECK-DAG: parts.py:7:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}star_reexport.py:[[#LOOP:]]:9
# CHECK-DAG: model.py:11:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}star_reexport.py:[[#LOOP]]:9
# CHECK-NOT: optimizer-not-on-model
# CHECK: 2 warning(s)
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from netpkg import *


def train_model(model, epochs=2):
    data = TensorDataset(torch.randn(8, 4), torch.zeros(8).long())
    loader = DataLoader(data, batch_size=2, shuffle=True, num_workers=2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    criterion = nn.CrossEntropyLoss() if epochs > 1 else nn.NLLLoss()
    for epoch in range(epochs):
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def test():
    print("no test")


if __name__ == "__main__":
    model = Net()
    model = model.to(memory_format=torch.channels_last)
    train_model(model=model)
    test()

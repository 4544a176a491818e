# A module's `__all__` names what a star import of it binds, names with a
# leading underscore too: a package re-exports its submodule's
# `_ConvDrop` (awesome-semantic-segmentation-pytorch's core/nn), which a
# model imports by name. The import was unresolved (only public names
# were taken) and the block's dropout was "may draw".
# RUN: rm -rf %t.dir && cp -r %S/Inputs/star_all %t.dir && cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py 2>&1 | FileCheck %s
# CHECK-NOT: cannot resolve
# CHECK-NOT: may draw
# CHECK: segnn/basic.py:11:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+10]]:1
# CHECK: 1 warning(s)
import torch
import torch.nn as nn

from segnn import _ConvDrop, Head

model = nn.Sequential(_ConvDrop(), Head())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.utils.data.DataLoader(torch.randn(8, 3, 4, 4), batch_size=2)
for x in data:
    opt.zero_grad()
    model(x).mean().backward()
    opt.step()

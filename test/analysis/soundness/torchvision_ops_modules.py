# Names imported from the modules of torchvision.ops that the package
# re-exports (`from torchvision.ops.boxes import box_area`, DETR's and its
# successors' imports) are the package's: box_area and FrozenBatchNorm2d
# draw nothing, DropBlock2d draws. All three were "may draw: calls code
# detc could not read".
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK: torchvision_ops_modules.py:[[@LINE+8]]:8: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: 1 warning(s)
import torch
from torchvision.ops.boxes import box_area
from torchvision.ops.drop_block import DropBlock2d
from torchvision.ops.misc import FrozenBatchNorm2d

norm = FrozenBatchNorm2d(3)
drop = DropBlock2d(0.1, 3)
w = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
loader = torch.utils.data.DataLoader(torch.zeros(8, 3, 4, 4), batch_size=2)
for x in loader:
    opt.zero_grad()
    area = box_area(torch.tensor([[0.0, 0.0, 1.0, 1.0]]))
    (drop(norm(x)).sum() * w + area.sum()).backward()
    opt.step()

# fp16 training's master weights (improved-diffusion's fp16_util, apex
# style): the parameters flattened into one buffer with torch's private
# `_flatten_dense_tensors`, its gradient scaled in place, and copied back
# with `_unflatten_dense_tensors`. Both only concatenate and view tensors
# (torch/_utils.py): nothing to report. Before, each was a may-draw ("a
# name of 'torch' that no API table describes"), and so was the scaling
# `master[0].grad.mul_(...)`, a tensor method on what one returned.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: 0 warning(s)
import torch
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors
from torch.utils.data import DataLoader, TensorDataset

net = torch.nn.Linear(2, 2)
params = list(net.parameters())
master = [torch.nn.Parameter(_flatten_dense_tensors(
    [p.detach().float() for p in params]))]
opt = torch.optim.SGD(master, lr=0.1)
for (x,) in DataLoader(TensorDataset(torch.zeros(8, 2)), batch_size=2):
    net(x).sum().backward()
    master[0].grad = _flatten_dense_tensors([p.grad.float() for p in params])
    master[0].grad.mul_(0.5)
    opt.step()
    for p, m in zip(params, _unflatten_dense_tensors(master[0].detach(),
                                                     params)):
        p.detach().copy_(m)

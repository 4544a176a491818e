# Library calls of a modern training step that draw nothing, each a false
# may-draw before (open_clip's loss and models):
#  - the differentiable collectives (torch.distributed.nn.all_gather,
#    all_reduce) and torch 2.x's functional collectives
#    (torch.distributed._functional_collectives.all_gather_tensor_autograd),
#    also a method of what they return (`.chunk`);
#  - TorchScript's question torch.jit.is_scripting() and its decorators,
#    which leave the function they mark as it is: its draws are found.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: collectives_and_torchscript.py:[[@LINE+16]]:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-DAG: collectives_and_torchscript.py:[[@LINE+20]]:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: 2 warning(s)
import torch
import torch.distributed.nn
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

try:
    import torch.distributed._functional_collectives as dist_fcol
except ImportError:
    dist_fcol = None


@torch.jit.ignore
def jitter(x):
    return x + torch.randn_like(x)


@torch.jit.unused
def jitter2(x):
    return x + torch.rand_like(x)


def gather_with_grad(t):
    if dist_fcol is not None:
        return dist_fcol.all_gather_tensor_autograd(t, gather_dim=0, group=None)
    return torch.cat(torch.distributed.nn.all_gather(t), dim=0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    @torch.jit.export
    def forward(self, x):
        if torch.jit.is_scripting():
            return self.fc(x)
        return self.fc(jitter2(jitter(x)))


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.ones(8, 4)), batch_size=2)
for (x,) in loader:
    out = model(x)
    parts = gather_with_grad(out).chunk(2, dim=0)
    loss = torch.distributed.nn.all_reduce(parts[0].sum())
    opt.zero_grad()
    loss.backward()
    opt.step()

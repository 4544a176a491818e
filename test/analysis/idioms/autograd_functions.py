# Custom autograd functions as StyleGAN2's ops write them
# (rosinality/stylegan2-pytorch, op/*.py):
#  - called through an alias of `apply` (`grid_sample =
#    GridSampleForward.apply`): the forward runs, its draws are found (the
#    alias was a callee detc could not trace: one may-draw, the draw
#    unseen);
#  - a function kept on the context and called there (guided-diffusion's
#    gradient checkpointing: `ctx.run_function = run_function`, then
#    `ctx.run_function(*ctx.input_tensors)`): the blocks it runs are
#    followed, their dropout found (was a may-draw);
#  - the context's methods (`ctx.save_for_backward`) are torch's
#    FunctionCtx's, which draw nothing (each was a may-draw: a method of a
#    parameter bound to nothing);
#  - `torch.__version__` is a str: `.startswith` draws nothing (was a
#    name of torch no table describes);
#  - a C++ extension compiled at run time (`torch.utils.cpp_extension.load`)
#    may draw, and the note says it is C++ the program compiles.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: autograd_functions.py:[[@LINE+27]]:17: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-DAG: autograd_functions.py:[[@LINE+22]]:20: warning: may draw: 'ext.fused_noise' calls code detc could not read
# CHECK-DAG: note: 'ext.fused_noise' is code of 'torch.utils.cpp_extension.load' that detc does not read (C++/CUDA code the program compiles at run time with load or load_inline)
# CHECK-DAG: autograd_functions.py:[[@LINE+50]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-DAG: autograd_functions.py:[[@LINE+41]]:30: note: reached through the call to 'Block._forward' here
# CHECK: 3 warning(s)
import torch
from torch import nn
from torch.autograd import Function
from torch.utils.cpp_extension import load
from torch.utils.data import DataLoader, TensorDataset

ext = load("ext", sources=["ext.cpp"])


def could_use_ext(x):
    return x.is_cuda and not torch.__version__.startswith("1.7.")


class NoisyAct(Function):
    @staticmethod
    def forward(ctx, x, scale):
        if could_use_ext(x):
            return ext.fused_noise(x, scale)
        ctx.save_for_backward(x)
        ctx.mark_non_differentiable(scale)
        ctx.set_materialize_grads(False)
        noise = torch.rand_like(x)
        return torch.relu(x + noise) * scale

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * (x > 0), None


noisy_act = NoisyAct.apply


class CheckpointFunction(Function):
    @staticmethod
    def forward(ctx, run_function, length, *args):
        ctx.run_function = run_function
        ctx.input_tensors = list(args[:length])
        with torch.no_grad():
            output_tensors = ctx.run_function(*ctx.input_tensors)
        return output_tensors


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return CheckpointFunction.apply(self._forward, 1, x)

    def _forward(self, x):
        return self.drop(self.fc(x))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.block = Block()

    def forward(self, x):
        return self.block(noisy_act(self.fc(x), torch.tensor(2.0)))


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.ones(8, 4)), batch_size=2)
for (x,) in loader:
    loss = model(x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

# A kernel launcher's arithmetic on sizes (modded-nanogpt's triton
# wrappers: `n_docs.bit_length()`, `(block_m - 1).bit_length()`,
# `triton.cdiv`, `triton.next_power_of_2`), called in the training loop.
# The methods of int, float, bytes and tuple are known value methods (the
# derived receiver-method lines), and triton is a quiet library: its
# kernels' random functions take their seed as an argument. Before, each
# was a may-draw finding ("method 'bit_length' of a value detc cannot
# trace"; triton an unresolved import). The kernel's seed, drawn by the
# program, is the finding.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import torch
import triton
from torch.utils.data import DataLoader, TensorDataset


def launch(x, seed):
    n_rows = int(x.shape[0])
    block = triton.next_power_of_2(n_rows)
    grid = triton.cdiv(n_rows, block)
    bits = (block - 1).bit_length() + n_rows.bit_length()
    scale = float(bits).is_integer()
    return x * (grid + bits + scale + seed)


model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.randn(8, 4), torch.randn(8, 1))
for x, y in DataLoader(data, batch_size=2):
    opt.zero_grad()
    # CHECK: kernel_launch_values.py:[[@LINE+1]]:12: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
    seed = torch.randint(0, 2**31, ()).item()
    (model(launch(x, seed)) - y).pow(2).mean().backward()
    opt.step()
# CHECK: 1 warning(s)

# A function reached along very many call paths whose code takes a
# gradient: a profiling helper that times a layer's forward and backward
# (yolov5's utils.torch_utils.profile, reached from every layer its config
# may name). Past 256 expansions its calls are summarized as a plain
# function's are (summarized_calls.py), the gradient kept as an event that
# may not happen. Before, a gradient anywhere below a function kept it from
# being summarized: the expansion stopped at the statement limit with no
# findings.
# RUN: detc analyze --python none %s --max-statements=60000 2>&1 | FileCheck %s
# RUN: detc transform --python none %s --emit-python --max-statements=60000 -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
import torch
from torch.utils.data import DataLoader, TensorDataset


def timed(x):
    y = x * 2
    y.sum().backward()
    return y


def level0(x):
    t = timed(x)
    # CHECK: summarized_gradients.py:[[@LINE+2]]:20: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
    # KEYED: return t * x * _detc_rt.keyed({{[0-9]+}}, {{[0-9]+}}, torch.rand)(1)
    return t * x * torch.rand(1)


def level1(h):
    return level0(h) * level0(h) * level0(h) * level0(h)


def level2(h):
    return level1(h) * level1(h) * level1(h) * level1(h)


def level3(h):
    return level2(h) * level2(h) * level2(h) * level2(h)


def level4(h):
    return level3(h) * level3(h) * level3(h) * level3(h)


def level5(h):
    return level4(h) * level4(h) * level4(h) * level4(h)


def level6(h):
    return level5(h) * level5(h) * level5(h) * level5(h)


def level7(h):
    return level6(h) * level6(h) * level6(h) * level6(h)


loader = DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=2)
for (x,) in loader:
    print(level7(x).sum())
# CHECK: 1 warning(s)

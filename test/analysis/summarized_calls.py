# A function reached along very many call paths (each level calls the
# next twice, as blocks are shared by every stage of a model zoo: KAIR's
# ResBlock reached 45,853 paths before the statement limit; timm's blocks
# too). After 256 expansions of a function, a further call whose code only
# computes and draws is one statement followed by the draws its code may
# make: the graph stays small, and the draw deep in the tree is still an
# unsafe draw in the batch region, keyed by the transform. Before, the
# expansion stopped at the statement limit (here 60000) with no findings.
# RUN: detc analyze --python none %s --max-statements=60000 2>&1 | FileCheck %s
# RUN: detc transform --python none %s --emit-python --max-statements=60000 -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
import torch
from torch.utils.data import DataLoader, TensorDataset


def level0(x):
    # CHECK: summarized_calls.py:[[@LINE+2]]:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
    # KEYED: return x * _detc_rt.keyed({{[0-9]+}}, {{[0-9]+}}, torch.rand)(1)
    return x * torch.rand(1)


def level1(h):
    a = level0(h)
    return a * level0(a)


def level2(h):
    a = level1(h)
    return a * level1(a)


def level3(h):
    a = level2(h)
    return a * level2(a)


def level4(h):
    a = level3(h)
    return a * level3(a)


def level5(h):
    a = level4(h)
    return a * level4(a)


def level6(h):
    a = level5(h)
    return a * level5(a)


def level7(h):
    a = level6(h)
    return a * level6(a)


def level8(h):
    a = level7(h)
    return a * level7(a)


def level9(h):
    a = level8(h)
    return a * level8(a)


def level10(h):
    a = level9(h)
    return a * level9(a)


def level11(h):
    a = level10(h)
    return a * level10(a)


def level12(h):
    a = level11(h)
    return a * level11(a)


def level13(h):
    a = level12(h)
    return a * level12(a)


def level14(h):
    a = level13(h)
    return a * level13(a)


def level15(h):
    a = level14(h)
    return a * level14(a)


loader = DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=2,
                    num_workers=2)
for (x,) in loader:
    print(level15(x).sum())
# CHECK: 1 warning(s)

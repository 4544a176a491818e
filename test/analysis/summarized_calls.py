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


def level1(x):
    return level0(x) + level0(x)


def level2(x):
    return level1(x) + level1(x)


def level3(x):
    return level2(x) + level2(x)


def level4(x):
    return level3(x) + level3(x)


def level5(x):
    return level4(x) + level4(x)


def level6(x):
    return level5(x) + level5(x)


def level7(x):
    return level6(x) + level6(x)


def level8(x):
    return level7(x) + level7(x)


def level9(x):
    return level8(x) + level8(x)


def level10(x):
    return level9(x) + level9(x)


def level11(x):
    return level10(x) + level10(x)


def level12(x):
    return level11(x) + level11(x)


def level13(x):
    return level12(x) + level12(x)


def level14(x):
    return level13(x) + level13(x)


def level15(x):
    return level14(x) + level14(x)


loader = DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=2,
                    num_workers=2)
for (x,) in loader:
    print(level15(x).sum())
# CHECK: 1 warning(s)

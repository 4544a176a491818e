# A library call no table describes may call the program's functions and
# callable objects it is given (sound by default): `retry(augment, x)` of a
# library detc cannot find runs `augment` there, and a lambda handed to a
# torch name no table lists is run too. The call itself is still a
# may-draw finding when detc does not read the library, or when no table
# describes the name (a torch function newer than the tables).
# RUN: detc analyze %s 2>&1 | FileCheck %s
import random

import torch
from torch.utils.data import DataLoader, Dataset
import somelib


def augment(x):
# CHECK-DAG: unknown_library_callbacks.py:[[@LINE+1]]:16: warning: generator 'random' (global) is used inside the per-example data-parallel region
    return x + random.random()


class Data(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
# CHECK-DAG: unknown_library_callbacks.py:[[@LINE+1]]:16: warning: may draw: 'somelib.retry' calls code detc could not read
        return somelib.retry(augment, torch.zeros(1))


torch.manual_seed(0)
for x in DataLoader(Data(), batch_size=4, num_workers=2):
# CHECK-DAG: unknown_library_callbacks.py:[[@LINE+2]]:36: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-DAG: unknown_library_callbacks.py:[[@LINE+1]]:5: warning: may draw: 'torch.some_new_api.run' calls code detc could not read
    torch.some_new_api.run(lambda: torch.rand(1))
# CHECK: 4 warning(s); unsafe generators (ERR): 'random' (global), 'torch' (global)

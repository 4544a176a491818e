# A script in a subfolder of a project (minGPT's projects/chargpt/
# chargpt.py) imports the project's packages as users have them after
# `pip install -e .`: the package at the project's top folder (`mingpt`)
# and one in its src/ folder (a src layout). The project's folder is the
# nearest one up with pyproject.toml, setup.py, setup.cfg or .git. Before,
# both imports were unresolved and neither draw was found.
# RUN: rm -rf %t.dir && cp -r %S/Inputs/project_root %t.dir
# RUN: mkdir -p %t.dir/projects/cifar && cp %s %t.dir/projects/cifar/train.py
# RUN: cd %t.dir/projects/cifar && detc analyze train.py 2>&1 | FileCheck %s
# CHECK-NOT: cannot resolve import
# CHECK-DAG: ../../mingpt/model.py:7:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[#LOOP:]]:1
# CHECK-DAG: ../../src/augment/noise.py:5:22: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at train.py:[[#LOOP]]:1
# CHECK: 2 warning(s)
import torch
from torch.utils.data import DataLoader, Dataset

from augment import jitter
from mingpt.model import GPT


class Noisy(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return jitter(torch.zeros(4))


model = GPT()
for x in DataLoader(Noisy(), batch_size=2, num_workers=2):
    model(x)

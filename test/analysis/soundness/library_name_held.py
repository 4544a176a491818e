# A library class or function held in a variable and called through it:
# `dataset_class = torchvision.datasets.CIFAR10` (or CIFAR100 in another
# branch) then `dataset_class(root, transform=...)`, as
# vision-transformers-cifar10 builds its datasets; `noise = torch.randn`
# then `noise(3)`. The call is that library call: the dataset runs its
# transform per example, and the function draws. Before, the dataset was
# nothing detc knew and the transform's draws were silent; the function
# call was a may-draw of code detc could not read. Names of different
# kinds (two draws from different generators) stay a may-draw.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: library_name_held.py:[[@LINE+18]]:32: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}library_name_held.py:[[@LINE+21]]:1
# CHECK-DAG: library_name_held.py:[[@LINE+21]]:14: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}library_name_held.py:[[@LINE+20]]:1
# CHECK-DAG: library_name_held.py:[[@LINE+21]]:12: warning: may draw: 'either' calls code detc could not read
# CHECK: 3 warning(s)
import random
import sys

import torch
import torchvision
import torchvision.transforms as transforms

if sys.argv[1] == "cifar10":
    dataset_class = torchvision.datasets.CIFAR10
else:
    dataset_class = torchvision.datasets.CIFAR100
noise = torch.randn
either = random.random if len(sys.argv) > 2 else torch.rand

train_tf = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.ToTensor()])
trainset = dataset_class(root="./data", train=True, transform=train_tf)
loader = torch.utils.data.DataLoader(trainset, batch_size=4, num_workers=2)
for x, y in loader:
    jitter = noise(3)
    coin = either()

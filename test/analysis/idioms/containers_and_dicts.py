# Idioms 1 and 2 (issue 17) end to end in `detc analyze`: a list of
# transforms grown with append/+= and composed, kept in a dict, passed as
# CIFAR10's 3rd positional argument; an empty Compose whose `transforms`
# list is appended to, stored on a dataset after it was built; workers set
# by `kwargs.update(...)` and `dict(kwargs, ...)`. Both draws run per
# example (each in its loader's loop); before the points-to analysis
# detc found neither.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK: containers_and_dicts.py:[[@LINE+9]]:14: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}containers_and_dicts.py:[[@LINE+23]]:5
# CHECK: containers_and_dicts.py:[[@LINE+11]]:28: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}containers_and_dicts.py:[[@LINE+24]]:5
# CHECK: 2 warning(s); unsafe generators (ERR): 'torch' (global)
import torch
import torchvision.transforms as T
from torch.utils.data import DataLoader
from torchvision import datasets

steps = []
steps.append(T.RandomHorizontalFlip())
steps += [T.ToTensor()]
pipeline = T.Compose([])
pipeline.transforms.append(T.RandomCrop(32, padding=4))
data_transforms = {"train": T.Compose(steps), "val": pipeline}
train_set = datasets.CIFAR10("data", True, data_transforms["train"])
val_set = datasets.CIFAR10("data", False)
val_set.transform = data_transforms["val"]
kwargs = {"batch_size": 64}
kwargs.update({"num_workers": 4})
train_loader = DataLoader(train_set, shuffle=True, **kwargs)
val_loader = DataLoader(val_set, **dict(kwargs, shuffle=False))
model = torch.nn.Linear(3072, 10)
for epoch in range(2):
    for x, y in train_loader:
        model(x.flatten(1))
    for x, y in val_loader:
        model(x.flatten(1))

# detc-optimizer-not-on-model stays silent on RepDistiller's train_student
# shape: the student model is appended to two ModuleLists, the optimizer
# is built over one (`trainable_list`), and the training function runs
# `module_list[0]` of the other. Both hold the same module (the points-to
# says which builds each forward may run), and the forward a batch fetch
# runs (the dataset's transform) is not the model being trained: the
# session-59 first binary reported "the training loop's forward runs
# `train_loader.dataset.transform`". An optimizer over a ModuleList that
# holds only the teacher is still reported.
# RUN: detc analyze %s --werror 2>&1 | FileCheck %s --check-prefix=SILENT --allow-empty
# RUN: sed -e 's/trainable_list.append(model_s)/trainable_list.append(model_t)/' %s > %t.teacher.py
# RUN: not detc analyze %t.teacher.py --werror 2>&1 | FileCheck %s
# SILENT-NOT: warning:
# CHECK: warning: this optimizer step updates the parameters of `trainable_list` (the optimizer built at line {{[0-9]+}}), but the training loop's forward runs `model_s`: its parameters are never updated; build the optimizer over the parameters of the model being trained [detc-optimizer-not-on-model]
import torch
import torch.nn as nn
import torchvision.transforms as T
from torch.utils.data import DataLoader
from torchvision.datasets import CIFAR10


def train(epoch, train_loader, module_list, optimizer):
    for module in module_list:
        module.train()
    model_s = module_list[0]
    for idx, (x, y) in enumerate(train_loader):
        loss = nn.functional.cross_entropy(model_s(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    transform = T.Compose([T.RandomCrop(32, padding=4), T.ToTensor()])
    train_loader = DataLoader(CIFAR10('data', transform=transform),
                              batch_size=8)
    model_s = nn.Linear(4, 2)
    model_t = nn.Linear(4, 2)
    module_list = nn.ModuleList([])
    module_list.append(model_s)
    trainable_list = nn.ModuleList([])
    trainable_list.append(model_s)
    optimizer = torch.optim.SGD(trainable_list.parameters(), lr=0.1)
    for epoch in range(3):
        train(epoch, train_loader, module_list, optimizer)


main()

# Idiom 2 (issue 17): transform pipelines built up in containers — an
# empty Compose whose `transforms` list is appended to, a list grown with
# append/+=/insert/extend then composed, transforms kept in a dict — reach
# the datasets' transform (CIFAR10's is its 3rd positional argument).
# RUN: detc %s --emit=points-to | FileCheck %s
# CHECK: object torchvision.datasets.CIFAR10@[[@LINE+19]]:13
# CHECK: .transform -> {torchvision.transforms.Compose@[[@LINE+17]]:29}
# CHECK: object torchvision.datasets.ImageFolder@[[@LINE+18]]:11
# CHECK: .transform -> {torchvision.transforms.Compose@[[@LINE+8]]:12}
# CHECK: object torchvision.transforms.Compose@[[@LINE+7]]:12
# CHECK-NEXT: .[*] -> {torchvision.transforms.RandomCrop@[[@LINE+7]]:28}
# CHECK: object torchvision.transforms.Compose@[[@LINE+12]]:29
# CHECK-NEXT: .[*] -> {torchvision.transforms.ColorJitter@[[@LINE+9]]:17, torchvision.transforms.Normalize@[[@LINE+10]]:15, torchvision.transforms.RandomHorizontalFlip@[[@LINE+7]]:14, torchvision.transforms.ToTensor@[[@LINE+8]]:11}
import torchvision.transforms as T
from torchvision import datasets

pipeline = T.Compose([])
pipeline.transforms.append(T.RandomCrop(32, padding=4))
steps = []
steps.append(T.RandomHorizontalFlip())
steps += [T.ToTensor()]
steps.insert(0, T.ColorJitter(0.4, 0.4, 0.4))
steps.extend([T.Normalize((0.5,), (0.5,))])
data_transforms = {"train": T.Compose(steps), "val": T.Compose([T.ToTensor()])}
train_set = datasets.CIFAR10("data", True, data_transforms["train"])
val_set = datasets.ImageFolder("val", transform=pipeline)

# Idioms 8 and 9 (issue 17) and classes: instances with attributes set in
# __init__ of a base class reached through super(); a generator wrapping
# an iterable (`for b in log_every(batches)`); iter()/next(); an attribute
# stored on an object after it was built (`loader.dataset.transform = ...`);
# functions taken out of containers and called (`op, v =
# random.choice(ops); op(img, v)`); a process target run with its args
# (hogwild training: `mp.Process(target=train, args=(model, loader))`).
# RUN: detc %s --emit=points-to | FileCheck %s
# CHECK-LABEL: scope Base.__init__
# CHECK-NEXT: self -> {Net@[[@LINE+74]]:9}
# CHECK-NEXT: width -> {16}
# CHECK-LABEL: scope __main__
# CHECK: b -> {torch.ones@[[@LINE+66]]:12, torch.zeros@[[@LINE+66]]:27}
# CHECK: first -> {torch.ones@[[@LINE+65]]:12, torch.zeros@[[@LINE+65]]:27}
# CHECK: level -> {128, 8}
# CHECK: op -> {def cutout, def solarize}
# CHECK-LABEL: scope cutout
# CHECK-NEXT: img -> {torch.zeros@[[@LINE+58]]:13}
# CHECK-LABEL: scope train
# CHECK-NEXT: loader -> {torch.utils.data.DataLoader@[[@LINE+57]]:10}
# CHECK-NEXT: model -> {Net@[[@LINE+63]]:9}
# CHECK: object Net@[[@LINE+62]]:9
# CHECK-NEXT: .drop -> {torch.nn.Dropout@[[@LINE+16]]:21}
# CHECK-NEXT: .fc -> {torch.nn.Linear@[[@LINE+22]]:19}
# CHECK: object torch.utils.data.TensorDataset@[[@LINE+52]]:21
# CHECK: .transform -> {torchvision.transforms.RandomErasing@[[@LINE+40]]:12}
import random

import torch
import torch.multiprocessing as mp
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from torchvision import transforms


class Base(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.drop = nn.Dropout(0.5)
        self.width = width


class Net(Base):
    def __init__(self, width=16):
        super().__init__(width)
        self.fc = nn.Linear(width, 1)

    def forward(self, x):
        return self.fc(self.drop(x))


def log_every(iterable, n):
    for item in iterable:
        yield item


def cutout(img, size):
    return img


def solarize(img, level):
    return img


def build_aug(strength):
    return transforms.RandomErasing(strength)


def train(model, loader):
    for x, y in loader:
        model(x)


ops = [(cutout, 8), (solarize, 128)]
op, level = random.choice(ops)
picked = op(torch.zeros(2), level)
loader = DataLoader(TensorDataset(torch.zeros(4, 2)))
loader.dataset.transform = build_aug(0.5)
batches = [torch.ones(2), torch.zeros(2)]
it = iter(batches)
first = next(it)
for step, b in enumerate(log_every(batches, 10)):
    pass
model = Net()
p = mp.Process(target=train, args=(model, loader))

# detc-layer-never-run (issue 21: an optimizer over parameters the model's
# forward never uses): `Classifier` still builds `old_head`, which its
# forward stopped calling when `head` replaced it; the optimizer over the
# whole model holds its parameters, which never change. Silent: a layer
# the training loop runs directly (`model.aux`), one a helper runs through
# `self` (`net.proj`), one only initialised in `__init__` (conservative),
# a parameter-free layer (`Dropout`), and a class that reaches its layers
# dynamically (`getattr(self, ...)`); the model built by a helper
# (`build()`) is found through the builds its forwards run; a comment
# that mentions `self.old_head` does not use it. The fixed class (no
# `old_head`) is silent.
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: sed -e '/self.old_head = /d' %s > %t.fixed.py
# RUN: detc analyze %t.fixed.py --werror | FileCheck %s --check-prefix=FIXED
import torch
from torch import nn
import torch.nn.functional as F


def project(net, h):
    return net.proj(h)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
        # CHECK: layer_never_run.py:[[@LINE+1]]:25: warning: layer `self.old_head` (torch.nn.Linear) of `Classifier` is built here, but nothing runs it: `Classifier.forward` does not use it, nor does any other code; the optimizer built at line 60 holds its parameters, which get no gradient and never change — remove the layer or run it in `forward` [detc-layer-never-run]
        self.old_head = nn.Linear(16, 2)
        self.head = nn.Linear(16, 2)
        self.aux = nn.Linear(8, 2)
        self.proj = nn.Linear(16, 16)
        self.init_only = nn.Linear(16, 16)
        nn.init.zeros_(self.init_only.bias)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        # Commented-out code is no use of a layer:
        # return self.old_head(self.body(x))  # getattr(self, "old_head")
        return self.head(project(self, self.body(x)))


class Dynamic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc0 = nn.Linear(8, 8)
        self.fc1 = nn.Linear(8, 2)

    def forward(self, x):
        return getattr(self, "fc1")(x)


def build():
    return Classifier()


def main():
    model = build()
    # CHECK: layer_never_run.py:[[@LINE+1]]:11: note: the optimizer over the model's parameters
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    dyn = Dynamic()
    dyn_opt = torch.optim.SGD(dyn.parameters(), lr=0.1)
    data = [(torch.randn(4, 8), torch.randint(0, 2, (4,))) for _ in range(4)]
    for epoch in range(2):
        for x, y in data:
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y) + model.aux(x).pow(2).mean()
            loss.backward()
            opt.step()
            dyn_opt.zero_grad()
            F.cross_entropy(dyn(x), y).backward()
            dyn_opt.step()


main()
# CHECK: 1 warning(s)
# FIXED: 0 warning(s)

# detc-optimizer-not-on-model: the training loop runs `model` but steps an
# optimizer built over `teacher`'s parameters, so `model` never learns. A
# GAN (each optimizer over the model its loop runs), an optimizer over a
# submodule or over the wrapped model of a DistributedDataParallel, and
# the fixed variant stay silent.
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: sed -e 's/SGD(teacher.parameters()/SGD(model.parameters()/' %s > %t.fixed.py
# RUN: detc analyze %t.fixed.py --werror | FileCheck %s --check-prefix=FIXED
import torch
from torch import nn
import torch.nn.functional as F


def main():
    model = nn.Linear(4, 2)
    teacher = nn.Linear(4, 2)
    # CHECK-DAG: optimizer_not_on_model.py:[[@LINE+1]]:11: note: the optimizer is built here
    opt = torch.optim.SGD(teacher.parameters(), lr=0.1)
    head = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 2))
    head_opt = torch.optim.SGD(head[1].parameters(), lr=0.1)
    gen, disc = nn.Linear(2, 4), nn.Linear(4, 1)
    g_opt = torch.optim.Adam(gen.parameters())
    d_opt = torch.optim.Adam(disc.parameters())
    data = [torch.randn(8, 4) for _ in range(4)]
    for epoch in range(2):
        for x in data:
            opt.zero_grad()
            F.mse_loss(model(x), x[:, :2]).backward()
            # CHECK-DAG: optimizer_not_on_model.py:[[@LINE+1]]:13: warning: this optimizer step updates the parameters of `teacher` (the optimizer built at line 18), but the training loop's forward runs `model`: its parameters are never updated; build the optimizer over the parameters of the model being trained [detc-optimizer-not-on-model]
            opt.step()
            head_opt.zero_grad()
            head(x).sum().backward()
            head_opt.step()
            d_opt.zero_grad()
            disc(gen(x[:, :2]).detach()).mean().backward()
            d_opt.step()
            g_opt.zero_grad()
            disc(gen(x[:, :2])).mean().backward()
            g_opt.step()


main()
# CHECK: 1 warning(s)
# FIXED-NOT: warning:
# FIXED: 0 warning(s)

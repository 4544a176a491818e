# Code detc does not read may change the objects it is given (sound by
# default). DeiT trains through timm's `loss_scaler(loss, optimizer,
# parameters=model.parameters())` (declared `quiet`: it draws nothing,
# which says nothing of what it changes) and averages the weights into
# `model_ema.update(model)`: the session-61 first binary took the call to
# read its arguments only, so the model looked untrained where the EMA
# read it, and a resume re-derived the EMA from the initial weights. Now
# the call changes the objects it is given (the model behind
# `model.parameters()`, the optimizer, the callable itself), and the EMA,
# derived from the training, is saved. The standard library changes
# nothing it is given (`os.path.join(args.out_dir, ...)`, stdlib.api).
#
# A method of the program's class called on an element of a container
# (DeiT's and MAE's `self.meters[k].update(v)`): the container stands for
# the receiver. The first binary bound the first argument to `self`.
# RUN: detc %s --python none | FileCheck %s
# RUN: detc %s --python none | FileCheck %s --check-prefix=BIND
# RUN: detc analyze %s --python none | FileCheck %s --check-prefix=REPLAY
import argparse
import os

import torch
from timm.utils import ModelEma, NativeScaler
from torch.utils.data import DataLoader, TensorDataset


class Meter:
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def update(self, value):
        self.total += value
        self.count += 1


class Meters:
    def __init__(self):
        self.meters = {"loss": Meter()}

    def update(self, **kwargs):
        for k, v in kwargs.items():
            # BIND: detc.call @Meter::@update bind {self = "self.meters", value = "v"}
            self.meters[k].update(v)


parser = argparse.ArgumentParser()
parser.add_argument("--out-dir", default=".")
args = parser.parse_args()
model = torch.nn.Linear(4, 2)
model_ema = ModelEma(model, decay=0.9)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_scaler = NativeScaler()
loader = DataLoader(TensorDataset(torch.randn(16, 4), torch.arange(16) % 2),
                    batch_size=4, shuffle=True)
for epoch in range(3):
    meters = Meters()
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        # CHECK: detc.stmt "expr" updates [{{.*}}"@opt", "@model", "@loss_scaler"] uses ["@loss", "@opt", "@model", "@loss_scaler"]
        loss_scaler(loss, opt, parameters=model.parameters())
        model_ema.update(model)
        meters.update(loss=loss.item())
    # CHECK: detc.stmt "assign" defs ["@path"] uses ["@args.out_dir"]
    path = os.path.join(args.out_dir, "ckpt.pt")
    torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                "epoch": epoch}, path)
    # REPLAY: saved by detc (needed, not re-derivable): {{.*}}model_ema [derived from the forward at {{[^ ]*}}unread_changes_arguments.py:[[@LINE-10]]:50]
    # REPLAY-SAME: meters [derived from the forward at
    print(meters.meters["loss"].total, model_ema.ema.weight)

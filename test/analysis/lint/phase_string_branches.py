# One epoch function for training and validation chosen by a string, as
# CenterNet's BaseTrainer.run_epoch(phase, ...) (also many `mode` and
# `split` trainers): `if phase == 'train': model.train() else:
# model.eval()`, then `if phase == 'train':` steps. Each call's expansion
# takes the branch its string selects — a literal argument or a default
# string; `!=` and the literal first are read too — so what only another
# phase runs is not in it. On CenterNet, the training expansion no longer
# reaches its forward through the validation's `model_with_loss.eval()`
# (a false detc-eval-not-restored). Here: the noise only `phase ==
# "val"` adds is drawn by no call (the script validates with
# `evaluate`), so it is no finding; the dropout the training forward runs
# is one.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# RUN: detc %s --emit=mlir --python none | FileCheck %s --check-prefix=IR
# CHECK: phase_string_branches.py:[[@LINE+37]]:38: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: 1 warning(s)
# IR: detc.call @run_epoch {{.*}}{str_params = {phase = "train"}}
# IR: detc.call @run_epoch {{.*}}{str_params = {phase = "train"}}
# IR: detc.if uses ["phase"] attributes {if_equal = "then", str_param = "phase", str_value = "train"}
# IR: detc.if uses ["phase"] attributes {if_equal = "then", str_param = "phase", str_value = "val"}
# IR: detc.if uses ["phase"] attributes {if_equal = "else", str_param = "phase", str_value = "train"}
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def run_epoch(model, loader, optimizer, phase="train"):
    if phase == "train":
        model.train()
    else:
        model.eval()
    for x, y in loader:
        if phase == "val":
            y = y + 0.01 * torch.randn_like(y)
        loss = nn.functional.mse_loss(model(x), y)
        if "train" != phase:
            continue
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def evaluate(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


torch.manual_seed(0)
data = DataLoader(TensorDataset(torch.randn(8, 4), torch.randn(8, 2)),
                  batch_size=2)
net = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(2):
    run_epoch(net, data, opt)
    run_epoch(net, data, opt, phase="train")
print(evaluate(net, torch.ones(1, 4)))

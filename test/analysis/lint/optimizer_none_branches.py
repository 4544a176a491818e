# One epoch function for training and evaluation, as FastAutoAugment's
# run_epoch (also pycls and many others): `run_epoch(model, loader,
# optimizer=None)` steps only `if optimizer:`. A call that gives it None
# (a literal, or the default) runs no backward and no step in that
# expansion, so evaluating after `model.eval()` is no "training forward in
# evaluation mode" (before: a false detc-eval-not-restored; on
# FastAutoAugment also three false rank-conditional findings for the
# validation under `if is_master:`). The real mistake stays reported:
# `finetune(model, loader, opt)` right after `evaluate_only` left the
# model in evaluation mode (`if optimizer is not None:`).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: optimizer_none_branches.py:[[@LINE+35]]:40: warning: generator 'torch' (global)
# CHECK-DAG: optimizer_none_branches.py:[[@LINE+21]]:39: warning: the model may still be in evaluation mode in this training forward: `model.eval()` at line [[#@LINE+29]] reaches it
# CHECK: 2 warning(s)
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def run_epoch(model, loader, optimizer=None, clip=None):
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x), y)
        if optimizer:
            loss.backward()
            if clip is not None:
                nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizer.step()
            optimizer.zero_grad()


def finetune(model, loader, optimizer=None):
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x), y)
        if optimizer is not None:
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


def evaluate_only(model, loader):
    model.eval()
    with torch.no_grad():
        run_epoch(model, loader, None)


model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.zeros(8, 4), torch.zeros(8, 4))
loader = DataLoader(data, batch_size=2)
rank = dist.get_rank() if dist.is_initialized() else 0
for epoch in range(2):
    model.train()
    run_epoch(model, loader, opt, clip=1.0)
    model.eval()
    if rank == 0:
        with torch.no_grad():
            run_epoch(model, loader)
evaluate_only(model, loader)
finetune(model, loader)
finetune(model, loader, opt)

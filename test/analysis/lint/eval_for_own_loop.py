# A training function that puts its model in evaluation mode for its own
# loop on purpose (MoCo's linear classification: `model.eval()` just
# before the loop keeps the frozen backbone's batch-norm statistics while
# the head trains), with the model wrapped in DistributedDataParallel:
# neither the eval() before the loop nor the wrapper's construction (whose
# body describes the forward it will run) is a training forward left in
# evaluation mode. Before, both were reported (4 findings on MoCo).
# A validation run between such an eval() and the loop is the usual
# mistake, and still found.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: warning:
# CHECK: eval_for_own_loop.py:[[@LINE+30]]:32: warning: the model may still be in evaluation mode in this training forward: `model.eval()` at line [[@LINE+26]]
# CHECK-NOT: warning:
# CHECK: 1 warning(s)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

model = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.Linear(8, 2))
if torch.distributed.is_initialized():
    model = DistributedDataParallel(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
batches = [(torch.randn(8, 4), torch.zeros(8).long()) for _ in range(4)]


def train_head(model, opt):
    # Frozen features: keep the batch-norm statistics as they are.
    model.eval()
    for x, y in batches:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


def train_after_validation(model, opt):
    model.eval()
    with torch.no_grad():
        accuracy = sum((model(x).argmax(1) == y).sum() for x, y in batches)
    for x, y in batches:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return accuracy


for epoch in range(2):
    train_head(model, opt)
    train_after_validation(model, opt)

"""A module whose training loop's function is both an entry of its own
(nothing in the file calls `train_epoch` from the top level, so each
function is an entry) and called from another entry (`train`): the hint
is reached through two chains of calls of different lengths. detc refuses
with a diagnostic (it crashed: the shorter chain ran past its top). The
shape of pytorch/examples' mnist_hogwild/train.py."""
# RUN: not detc transform %s --emit-python --jit-checkpoint 2>&1 | FileCheck %s
# CHECK: jit_two_ways_in.py:[[@LINE+14]]:9: error: cannot checkpoint at the chosen hint: its function is reached through several calls; detc restarts at a hint reached through one [detc-hint]
import torch
import torch.nn.functional as F


def train(model, dataset, epochs):
    loader = torch.utils.data.DataLoader(dataset, batch_size=4)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        train_epoch(model, loader, opt)


def train_epoch(model, loader, opt):
    for x, y in loader:
        opt.zero_grad()
        F.nll_loss(model(x), y).backward()
        opt.step()

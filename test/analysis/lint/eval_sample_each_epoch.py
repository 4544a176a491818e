# A forward in the epoch loop's own body, outside the batch loop whose
# iterations train (real-nvp's `sample(net, ...)` at the end of `test()`,
# called each epoch after `train()`, `net.eval()` at the top of `test()`):
# the epoch loop runs its backward only in the nested batch loop, so that
# forward is no training forward and its evaluation mode is on purpose.
# It was reported: every loop around a backward counted as a training
# loop. A training forward left in evaluation mode by the validation of
# the epoch before (the second script's `train_other`, with no
# `model.train()`) is still found.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: warning: the model may still be in evaluation mode
# CHECK: eval_sample_each_epoch.py:[[@LINE+25]]:16: warning: the model may still be in evaluation mode in this training forward: `model.eval()` at line [[@LINE+31]]
# CHECK-NOT: warning: the model may still be in evaluation mode
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def sample(net, n):
    z = torch.randn(n, 4)
    x = net(z)
    return torch.sigmoid(x)


def train(epoch, net, loader, optimizer):
    net.train()
    for (x,) in loader:
        optimizer.zero_grad()
        loss = net(x).pow(2).mean()
        loss.backward()
        optimizer.step()


def train_other(epoch, model, loader, optimizer):
    for (x,) in loader:
        optimizer.zero_grad()
        loss = model(x).pow(2).mean()
        loss.backward()
        optimizer.step()


def test(epoch, net, loader):
    net.eval()
    total = 0.0
    with torch.no_grad():
        for (x,) in loader:
            total += float(net(x).sum())
    images = sample(net, 8)
    return total, images


def main():
    loader = DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=4)
    net = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 4))
    optimizer = torch.optim.Adam(net.parameters())
    for epoch in range(3):
        train(epoch, net, loader, optimizer)
        test(epoch, net, loader)
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 4))
    other_opt = torch.optim.Adam(model.parameters())
    for epoch in range(3):
        train_other(epoch, model, loader, other_opt)
        test(epoch, model, loader)


main()

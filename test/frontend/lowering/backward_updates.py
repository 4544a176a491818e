# What a backward changes: the models whose parameters the loss derives
# from, never a loader the loss also derives from (MoCo v3's momentum
# coefficient is computed from `len(train_loader)` and passed to the
# model, and its `scaler.scale(loss).backward()` counted as changing
# `train_loader`: --jit-checkpoint refused the loop over it, "iterates
# over 'train_loader', which the loops change"). Plain and AMP backwards.
# RUN: detc %s --python none | FileCheck %s
# RUN: detc transform %s --python none --emit-python --jit-checkpoint -o %t.py
# RUN: FileCheck %s --check-prefix=JIT < %t.py
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Contrastive(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(4, 2)

    def forward(self, x1, x2, m):
        q, k = self.encoder(x1), self.encoder(x2)
        return ((q - k.detach()) ** 2).mean() * m


def train(train_loader, model, optimizer, scaler, epoch):
    iters_per_epoch = len(train_loader)
    # JIT: for i, (x1, x2) in enumerate(_detc_rt.hints.loop({{[0-9]+}}, 1, train_loader), _detc_rt.hints.start({{[0-9]+}}, 1, 0)):
    for i, (x1, x2) in enumerate(train_loader):
        moco_m = 1.0 - 0.5 * (epoch + i / iters_per_epoch) / 2
        # CHECK: detc.grad updates ["model"] uses ["loss"]
        loss = model(x1, x2, moco_m)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        # CHECK: detc.grad updates ["model"] uses ["scaler", "loss"]
        loss = model(x1, x2, moco_m)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()


def main():
    model = Contrastive()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.cuda.amp.GradScaler()
    data = TensorDataset(torch.randn(16, 4), torch.randn(16, 4))
    train_loader = DataLoader(data, batch_size=4, shuffle=True)
    for epoch in range(2):
        train(train_loader, model, optimizer, scaler, epoch)


main()

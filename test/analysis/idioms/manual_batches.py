# Idiom 8 (issue 17): data-parallel regions without a DataLoader. A manual
# batch loop (`for i in range(0, n, bs): x = data[i:i + bs]`) and a BPTT
# loop (`for batch, i in enumerate(range(0, n - 1, bptt))` with
# `get_batch(source, i)`) are per-batch regions, like a loader's loop body:
# the noise drawn in them and the model's dropout are unsafe there. A loop
# over range() that does not cut batches (`for epoch in range(...)`) is not
# a region: the draw at the top of each epoch stays silent; nor is one that
# slices by something computed from the index (Swin's constructor cuts its
# drop-path rates per layer, `dpr[sum(depths[:i]):sum(depths[:i + 1])]`),
# nor a walk over a model's children calling a function whose name has
# `batch` in it without fetching one (open_clip's
# `freeze_batch_norm_2d(child)`: its loop was a region), nor a loop taking
# the rest of a list from its position, `self.transforms[i:]` (a slice
# with no end: 3D-ResNets' temporal Compose was a per-batch region), nor
# a sliding window, `x[i:i + k]` of a loop counting one by one (the windows
# overlap: the Time-Series-Library's DTW cost matrix loops were per-batch
# regions, and every augmentation draw after them was reported in one).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-DAG: manual_batches.py:[[@LINE+32]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}manual_batches.py:[[@LINE+30]]:9
# CHECK-DAG: manual_batches.py:[[@LINE+13]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}manual_batches.py:[[@LINE+29]]:9
# CHECK-DAG: manual_batches.py:[[@LINE+41]]:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}manual_batches.py:[[@LINE+39]]:5
# CHECK: 3 warning(s); unsafe generators (ERR): 'torch' (global)
import argparse

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.fc(self.drop(x))


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len]


def train(model, data, targets, bs, epochs):
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        scale = torch.rand(1).item()
        perm = torch.arange(len(data))
        for i in range(0, len(data), bs):
            idx = perm[i:i + bs]
            noise = torch.randn(len(idx), 8) * scale
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(data[idx] + noise),
                                               targets[idx])
            loss.backward()
            opt.step()


def train_lm(stream, bptt):
    for batch, i in enumerate(range(0, stream.size(0) - 1, bptt)):
        x, y = get_batch(stream, i, bptt)
        mask = torch.bernoulli(torch.full_like(x, 0.9))
        print(batch, float((x * mask - y).sum()))


class Stages(nn.Module):
    def __init__(self, depths, rate):
        super().__init__()
        dpr = [x.item() for x in torch.linspace(0, rate, sum(depths))]
        self.stages = nn.ModuleList()
        for i in range(len(depths)):
            rates = dpr[sum(depths[:i]):sum(depths[:i + 1])]
            stage = nn.Linear(8, 8)
            nn.init.trunc_normal_(stage.weight, std=0.02 + rates[0])
            self.stages.append(stage)


def reinit_batch_norm(module):
    for name, child in module.named_children():
        reinit_batch_norm(child)
        if isinstance(child, nn.BatchNorm1d):
            nn.init.uniform_(child.weight)


class Chain:
    def __init__(self, steps):
        self.steps = steps

    def __call__(self, x):
        for i, step in enumerate(self.steps):
            if isinstance(x, list):
                return [Chain(self.steps[i:])(part) for part in x]
            x = step(x) * torch.rand(1)
        return x


def smooth(series, width):
    out = []
    for i in range(len(series) - width):
        window = series[i:i + width]
        out.append(window.mean() + 0.01 * torch.rand(1))
    return out


def main():
    smooth(torch.randn(50), 5)
    Stages([2, 2, 6], 0.1)
    chain = Chain([abs, abs])
    chain(torch.randn(3))
    parser = argparse.ArgumentParser()
    parser.add_argument("--bs", type=int, default=32)
    args = parser.parse_args()
    model = Net()
    reinit_batch_norm(model)
    train(model, torch.randn(256, 8), torch.randint(0, 2, (256,)), args.bs, 2)
    train_lm(torch.randn(100, 4), 35)


if __name__ == "__main__":
    main()

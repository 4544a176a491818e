# Processes started with plain values only (I-JEPA's main.py: `for rank in
# range(n): mp.Process(target=process_main, args=(rank, args.fname, n,
# args.devices)).start()`): each process runs its own job (its model, its
# loader), as torch.multiprocessing.spawn's ranks do; nothing is shared, so
# the Process call is no data-parallel region of its own. The model built
# in each process is not a finding (it was: "inside the per-batch region
# that starts at" the Process call, for every initializer); the training
# loop inside still is a region, with its dropout. Filling a weight with a
# constant draws nothing; a truncated normal does (hogwild.py keeps a
# Process sharing its model a region).
# RUN: detc analyze %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: process_per_rank.py:[[@LINE+19]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}process_per_rank.py:[[@LINE+38]]:5
# CHECK: process_per_rank.py:[[@LINE+26]]:9: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}process_per_rank.py:[[@LINE+59]]:9
# CHECK: 2 warning(s)
import argparse

import torch
import torch.multiprocessing as mp
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--fname", type=str, default="config.yaml")
parser.add_argument("--devices", type=str, nargs="+", default=["cpu"])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.fc(self.drop(x))


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.trunc_normal_(m.weight, std=0.02)
        nn.init.constant_(m.bias, 0)


def process_main(rank, fname, world_size, devices):
    model = Net()
    for m in model.modules():
        init_weights(m)
    dataset = TensorDataset(torch.zeros(64, 8), torch.zeros(64).long())
    loader = DataLoader(dataset, batch_size=16, shuffle=False)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for x, y in loader:
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    print(rank, fname, world_size, devices)


def hogwild(model):
    for m in model.modules():
        init_weights(m)


if __name__ == "__main__":
    args = parser.parse_args()
    num_gpus = len(args.devices)
    mp.set_start_method("spawn")
    for rank in range(num_gpus):
        mp.Process(target=process_main,
                   args=(rank, args.fname, num_gpus, args.devices)).start()
    shared = Net()
    shared.share_memory()
    for rank in range(2):
        mp.Process(target=hogwild, args=(shared,)).start()

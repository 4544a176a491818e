# A DDP job's usual entry point (issue 42): `mp.spawn(main_worker,
# args=(world, args), nprocs=world)` runs main_worker(rank, world, args) in
# each process; the training loop is nowhere else. The analysis follows the
# launcher into main_worker as into a direct call (the API table's
# `launcher` role, rank first): the dataset's unseeded draw in the loader's
# workers, the dropout of the DDP-wrapped model and the loop that never
# resets gradients are found. Before, detc said nothing about this script.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-DAG: spawn_entry.py:[[@LINE+19]]:30: warning: generator 'random' (global) is used inside the per-example data-parallel region
# CHECK-DAG: spawn_entry.py:[[@LINE+26]]:45: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-DAG: spawn_entry.py:[[@LINE+33]]:13: warning: {{.*}}[detc-missing-zero-grad]
# CHECK: 3 warning(s); unsafe generators (ERR): 'random' (global), 'torch' (global)
import argparse
import random

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Noisy(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        x = torch.zeros(8) + random.random()
        return x, i % 2


def main_worker(rank, world, args):
    dist.init_process_group("gloo", init_method="file://" + args.pg,
                            rank=rank, world_size=world)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.2), nn.Linear(16, 2))
    model = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(Noisy(), batch_size=8, num_workers=2)
    for epoch in range(args.epochs):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--pg", default="/tmp/pg")
    args = p.parse_args()
    mp.spawn(main_worker, args=(2, args), nprocs=2)


if __name__ == "__main__":
    main()

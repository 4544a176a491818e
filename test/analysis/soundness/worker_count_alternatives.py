# A worker count that is a constant on one branch and anything on the other
# (`int(sys.argv[1]) if len(sys.argv) > 1 else 0`) may be more than 0: the
# examples may run in worker processes, and a draw in the dataset is unsafe
# there. Before, the constant alone was kept (a value detc knows nothing of
# has no facts, and the union of {0} and none was {0}): no region, no
# finding. (A command-line flag, `args.workers or 0`, has facts of its own
# and was right.) A count that is 0 on every branch stays 0; a known count
# on each branch is their maximum.
# RUN: detc analyze %s | FileCheck %s
import argparse
import random
import sys

import torch
from torch.utils.data import DataLoader, Dataset


class Noisy(Dataset):
    def __len__(self):
        return 8


class FromArgv(Noisy):
    def __getitem__(self, i):
        # CHECK-DAG: worker_count_alternatives.py:[[@LINE+1]]:30: warning: generator 'random' (global) is used inside the per-example data-parallel region
        return torch.tensor([random.random()])


class FromFlag(Noisy):
    def __getitem__(self, i):
        # CHECK-DAG: worker_count_alternatives.py:[[@LINE+1]]:30: warning: generator 'random' (global) is used inside the per-example data-parallel region
        return torch.tensor([random.random()])


class Held(Noisy):
    def __getitem__(self, i):
        # CHECK-DAG: worker_count_alternatives.py:[[@LINE+1]]:30: warning: generator 'random' (global) is used inside the per-example data-parallel region
        return torch.tensor([random.random()])


class Known(Noisy):
    def __getitem__(self, i):
        # CHECK-DAG: worker_count_alternatives.py:[[@LINE+1]]:30: warning: generator 'random' (global) is used inside the per-example data-parallel region
        return torch.tensor([random.random()])


class InProcess(Noisy):
    def __getitem__(self, i):
        # No finding: every branch is 0.
        return torch.tensor([random.random()])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--debug", action="store_true")
    args = parser.parse_args()
    for x in DataLoader(FromArgv(), num_workers=int(sys.argv[1]) if len(sys.argv) > 1 else 0):
        print(x)
    for x in DataLoader(FromFlag(), num_workers=args.workers or 0):
        print(x)
    workers = 0 if args.debug else args.workers
    for x in DataLoader(Held(), num_workers=workers):
        print(x)
    for x in DataLoader(Known(), num_workers=0 if args.debug else 4):
        print(x)
    for x in DataLoader(InProcess(), num_workers=0 if args.debug else 0):
        print(x)


if __name__ == "__main__":
    main()
# CHECK: 4 warning(s)

# A callable object picked out of a list or by a call, and called at once
# (AutoAugment's policies, as ViT-CIFAR and many CIFAR repositories copy
# them: `self.policies[policy_idx](img)`; `random.choice(self.ops)(img)`):
# the points-to says which of the program's classes the entry may be, and
# their `__call__` runs (each an alternative). Before, such a call was no
# one's, silently: the sub-policies' draws were no finding (the transform
# keys every loader's examples anyway, so only the report was wrong).
# RUN: detc analyze %s | FileCheck %s
import random

import torch
from torch.utils.data import DataLoader, Dataset


class SubPolicy:
    def __init__(self, p, amount):
        self.p = p
        self.amount = amount

    def __call__(self, x):
        # CHECK: picked_callables.py:[[@LINE+1]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region
        if random.random() < self.p:
            x = x + self.amount
        return x


class Jitter:
    def __call__(self, x):
        # CHECK: picked_callables.py:[[@LINE+1]]:20: warning: generator 'random' (global) is used inside the per-example data-parallel region
        return x * random.uniform(0.5, 1.5)


class Policy:
    def __init__(self):
        self.policies = [SubPolicy(0.3, 1.0), SubPolicy(0.7, -2.0)]
        self.extra = [Jitter()]

    def __call__(self, x, i):
        # The pick draws nothing: only the entries' calls do.
        x = self.policies[i % 2](x)
        return max(self.extra, key=id)(x)


class Examples(Dataset):
    def __init__(self, policy):
        self.policy = policy

    def __len__(self):
        return 8

    def __getitem__(self, i):
        return self.policy(torch.full((2,), float(i)), i)


def main():
    torch.manual_seed(0)
    random.seed(0)
    loader = DataLoader(Examples(Policy()), batch_size=2, num_workers=2)
    for batch in loader:
        print(batch.tolist())


if __name__ == "__main__":
    main()
# CHECK: 2 warning(s)

# Helpers of reachable_functions.py.
import random

import torch


def flip(x):
    return x.flip(0)


def noise(x):
    return x + torch.randn_like(x)


def make_collate(augs):
    def collate(batch):
        # Only DataLoader calls this closure: what `aug` holds is known
        # only if its body is analysed because library code is given it.
        aug = augs[random.randrange(len(augs))]
        return torch.stack([aug(b[0]) for b in batch])

    return collate


def unused(batch):
    # Nobody calls this: analysing it would cost, not change a finding.
    return make_collate([flip])(batch)

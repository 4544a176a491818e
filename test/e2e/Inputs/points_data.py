"""The data of the best-checkpoint e2e scripts (best_checkpoint_train.py,
best_or_regular_train.py): a learnable toy task whose training examples
get noise drawn from the global generator (the transforms' role), in a
module the scripts import (kill_resume.py --module copies it beside the
transformed script)."""
import torch
from torch.utils.data import Dataset


class Points(Dataset):
    def __init__(self, n, train):
        g = torch.Generator().manual_seed(1 if train else 2)
        self.x = torch.randn(n, 6, generator=g)
        self.y = (self.x[:, :3].sum(1) > 0).long() + (self.x[:, 3] > 1).long()
        self.train = train

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        x = self.x[i]
        if self.train:
            x = x + 0.3 * torch.randn(6)
        return x, self.y[i]

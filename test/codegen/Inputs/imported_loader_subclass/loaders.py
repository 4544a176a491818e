# A module the script imports: a dataset that draws per example, and a
# subclass of DataLoader it constructs (a project's InfiniteDataLoader
# shape).
import random

import torch
from torch.utils.data import DataLoader, Dataset


class Noisy(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.full((3,), float(i) + random.random())


class Persistent(DataLoader):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.epoch_batches = len(self.batch_sampler)

    def __len__(self):
        return self.epoch_batches


def make_loader(workers):
    return Persistent(Noisy(), batch_size=8, shuffle=True,
                      num_workers=workers)

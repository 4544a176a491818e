import random

import torch
from torch.utils.data import DataLoader, Dataset


class Mosaic(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        return torch.full((4,), float(i)) * random.uniform(0.5, 1.5), i % 2


class Loader(DataLoader):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.resizing = False

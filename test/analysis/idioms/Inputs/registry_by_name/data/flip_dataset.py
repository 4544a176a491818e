import random

import torch

from data.base_dataset import BaseDataset


class FlipDataset(BaseDataset):
    def __len__(self):
        return 8

    def __getitem__(self, index):
        a = torch.ones(4) * index
        if random.random() < 0.5:
            a = a.flip(0)
        return {"A": a}

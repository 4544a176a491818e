import random

import torch
from torch.utils.data import Dataset


class Joints(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        scale = random.uniform(0.75, 1.25)
        return torch.full((4,), scale)

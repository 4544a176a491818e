import random

import torch
from torch.utils.data import DataLoader, Dataset

from conf import settings


class Noisy(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.tensor([i + random.random()])


if __name__ == "__main__":
    for (x,) in DataLoader(Noisy(), batch_size=settings.BATCH_SIZE,
                           num_workers=settings.WORKERS):
        print(x)

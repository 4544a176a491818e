import numpy as np
import torch

from conf import settings


class Jittered(torch.utils.data.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.tensor([i]) + float(np.random.rand())


def main():
    loader = torch.utils.data.DataLoader(Jittered(), settings.BATCH_SIZE,
                                         num_workers=settings.WORKERS)
    total = 0
    for x in loader:
        total += x.sum()
    return total


if __name__ == "__main__":
    main()

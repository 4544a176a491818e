import fakeaug as A
import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __init__(self):
        self.flip = A.HorizontalFlip(p=0.2)

    def __len__(self):
        return 8

    def __getitem__(self, i):
        return self.flip(image=torch.zeros(3, 4, 4))["image"]


for x in DataLoader(Images(), batch_size=2, num_workers=2):
    print(x.sum())

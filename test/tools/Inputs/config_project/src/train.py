import torch
from torch.utils.data import DataLoader, Dataset

from augment import jitter


class Points(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return jitter(torch.zeros(2))


def train_model(model, opt):
    for x in DataLoader(Points(), batch_size=4, num_workers=2):
        model(x).sum().backward()
        opt.step()

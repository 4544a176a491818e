import torch
from torch.utils.data import DataLoader, Dataset

from ofa.utils import MyDataLoader


class Crops(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.rand(4)


class Provider:
    def __init__(self, sizes):
        loader_class = MyDataLoader if len(sizes) > 1 else DataLoader
        self.train = loader_class(Crops(), batch_size=2, num_workers=2)


class RunConfig:
    def __init__(self, sizes):
        self.sizes = sizes

    @property
    def data_provider(self):
        if self.__dict__.get("_data_provider", None) is None:
            self.__dict__["_data_provider"] = Provider(self.sizes)
        return self.__dict__["_data_provider"]

    @property
    def train_loader(self):
        return self.data_provider.train

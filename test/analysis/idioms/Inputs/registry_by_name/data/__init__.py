import importlib

import torch.utils.data

from data.base_dataset import BaseDataset


def find_dataset_using_name(dataset_name):
    dataset_filename = "data." + dataset_name + "_dataset"
    datasetlib = importlib.import_module(dataset_filename)
    dataset = None
    target = dataset_name.replace("_", "") + "dataset"
    for name, cls in datasetlib.__dict__.items():
        if name.lower() == target.lower() and issubclass(cls, BaseDataset):
            dataset = cls
    return dataset


def create_dataset(opt):
    return CustomDatasetDataLoader(opt).load_data()


class CustomDatasetDataLoader:
    def __init__(self, opt):
        self.opt = opt
        dataset_class = find_dataset_using_name(opt.dataset_mode)
        self.dataset = dataset_class(opt)
        self.dataloader = torch.utils.data.DataLoader(
            self.dataset, batch_size=2, shuffle=True, num_workers=2)

    def load_data(self):
        return self

    def __iter__(self):
        for i, data in enumerate(self.dataloader):
            yield data

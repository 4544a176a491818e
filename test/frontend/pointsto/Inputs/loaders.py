"""Helper module of helpers.py: builds loaders and returns them in a tuple."""
import torch
from torch.utils.data import DataLoader, TensorDataset


def get_loaders(args):
    train = TensorDataset(torch.zeros(8, 2))
    test = TensorDataset(torch.zeros(4, 2))
    kwargs = {"num_workers": args.workers, "pin_memory": True}
    return (DataLoader(train, batch_size=4, shuffle=True, **kwargs),
            DataLoader(test, batch_size=4, num_workers=0))

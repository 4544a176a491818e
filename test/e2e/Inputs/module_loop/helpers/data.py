"""Loaders built by a helper of the package (RepDistiller's
`get_cifar100_dataloaders`): detc keys them where this module constructs
them, each at a site of its own."""
import torch
from torch.utils.data import DataLoader, Dataset


class Points(Dataset):
    """Points with a random jitter per example (a keyed draw in workers)."""

    def __init__(self, n, seed, jitter):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, 6, generator=g)
        self.y = torch.randint(0, 3, (n,), generator=g)
        self.jitter = jitter

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i] + self.jitter * torch.randn(6), self.y[i]


def make_loaders(batch_size, num_workers):
    train_loader = DataLoader(Points(64, 1, 0.1), batch_size=batch_size,
                              shuffle=True, num_workers=num_workers)
    val_loader = DataLoader(Points(24, 2, 0.05), batch_size=batch_size // 2,
                            shuffle=True, num_workers=num_workers // 2)
    return train_loader, val_loader

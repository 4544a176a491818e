"""Data loading for train.py: a tensor image dataset with a torchvision
pipeline and a Cutout transform (numpy's global generator)."""
import numpy as np
import torch
import torchvision.transforms as transforms
from torch.utils.data import DataLoader, Dataset


class Cutout:
    """Zeroes one random square of the image."""

    def __init__(self, length):
        self.length = length

    def __call__(self, img):
        h, w = img.shape[1:]
        y, x = np.random.randint(h), np.random.randint(w)
        mask = torch.ones(h, w)
        mask[max(0, y - self.length // 2):y + self.length // 2,
             max(0, x - self.length // 2):x + self.length // 2] = 0
        return img * mask


class TensorImages(Dataset):
    def __init__(self, n=96, transform=None):
        gen = torch.Generator().manual_seed(3)
        self.images = torch.rand(n, 3, 12, 12, generator=gen)
        self.labels = torch.arange(n) % 3
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        image = self.images[index]
        if self.transform is not None:
            image = self.transform(image)
        return image, int(self.labels[index])


def get_training_dataloader(batch_size=16, num_workers=2, shuffle=True):
    transform_train = transforms.Compose([
        transforms.RandomCrop(10, padding=2),
        transforms.RandomHorizontalFlip(),
        Cutout(4),
    ])
    training = TensorImages(transform=transform_train)
    return DataLoader(training, shuffle=shuffle, num_workers=num_workers,
                      batch_size=batch_size)

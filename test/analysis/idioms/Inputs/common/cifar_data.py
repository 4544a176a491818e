"""A data module outside the script's directory (found with --path or
PYTHONPATH): a loader with workers over a dataset with a random crop."""
import torchvision.transforms as T
from torch.utils.data import DataLoader
from torchvision import datasets


def make_loader(root, workers):
    tf = T.Compose([T.RandomCrop(32, padding=4), T.ToTensor()])
    return DataLoader(datasets.CIFAR10(root, True, tf), batch_size=64,
                      shuffle=True, num_workers=workers)

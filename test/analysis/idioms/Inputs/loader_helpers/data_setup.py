import torchvision.transforms as T
from torch.utils.data import DataLoader
from torchvision import datasets


def build_aug(args):
    return T.Compose([T.RandomResizedCrop(args.size), T.ToTensor()])


def get_loaders(args):
    train = datasets.FakeData(size=64, image_size=(3, 32, 32))
    test = datasets.FakeData(size=32, image_size=(3, 32, 32))
    kwargs = {"batch_size": args.batch_size}
    kwargs.setdefault("num_workers", args.workers)
    train_loader = DataLoader(train, shuffle=True, **kwargs)
    test_loader = DataLoader(test, **{**kwargs, "shuffle": False})
    return train_loader, test_loader

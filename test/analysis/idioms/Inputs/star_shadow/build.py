from torchvision.transforms import *
from .mytf import *


def imagenet():
    train_transforms = []
    train_transforms.extend([
        RandomHorizontalFlip(),
        Lighting(0.1),
    ])
    return Compose(train_transforms)

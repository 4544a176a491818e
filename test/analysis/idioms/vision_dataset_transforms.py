# A dataset deriving from torchvision's VisionDataset through a base of the
# program's that forwards its arguments (`super().__init__(*args,
# **kwargs)`, DINOv2's ExtendedVisionDataset), and calling
# `self.transforms(image, target)`: VisionDataset keeps the transform and
# the target transform it is given and `transforms` runs both
# (StandardTransform). The transform's draws are per-example draws
# (before: nothing was found, and nothing said). An attribute of such a
# dataset that neither its class nor the program sets is its library
# base's: code detc does not model, a may-draw (before: silent).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: vision_dataset_transforms.py:[[@LINE+39]]:27: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}vision_dataset_transforms.py:[[@LINE+43]]:5
# CHECK-DAG: vision_dataset_transforms.py:[[@LINE+38]]:53: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}vision_dataset_transforms.py:[[@LINE+42]]:5
# CHECK-DAG: vision_dataset_transforms.py:[[@LINE+31]]:16: warning: may draw: 'self.decoded' calls code detc could not read
# CHECK-DAG: note: 'self.decoded' is 'decoded', which neither class 'Mirror' nor the program sets: its library base 'torchvision.datasets.VisionDataset' provides it
# CHECK: 3 warning(s)
import torch
from torch.utils.data import DataLoader
from torchvision import transforms as T
from torchvision.datasets import VisionDataset


class Extended(VisionDataset):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)

    def __getitem__(self, index):
        image, target = torch.zeros(3, 8, 8), index
        if self.transforms is not None:
            image, target = self.transforms(image, target)
        return image, target

    def __len__(self):
        return 8


class ImageNet(Extended):
    def __init__(self, *, root, transforms=None, transform=None,
                 target_transform=None):
        super().__init__(root, transforms, transform, target_transform)


class Mirror(VisionDataset):
    def __getitem__(self, index):
        return self.decoded(index), index

    def __len__(self):
        return 8


augmentation = T.Compose([T.RandomHorizontalFlip(), T.RandomErasing()])
train = ImageNet(root=".", transform=augmentation, target_transform=lambda _: ())
for data in (train, Mirror(".")):
    loader = DataLoader(data, batch_size=2, num_workers=2)
    for x, y in loader:
        pass

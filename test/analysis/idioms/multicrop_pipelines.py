# SwAV's multi-crop dataset: the crops' pipelines are built with
# `trans.extend([Compose([...])] * n)` and run with
# `list(map(lambda t: t(image), self.trans))`. `[x] * n` held nothing, so
# the lambda's `t` was bound to nothing: one "may draw" for the whole
# pipeline, and the program's own blur (numpy and random draws) and
# torchvision's crop and colour jitter unreported. A list repeated holds
# the list's elements; every draw is found where it is.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK-DAG: multicrop_pipelines.py:[[@LINE+21]]:12: warning: generator 'np.random' (global) is used inside the per-example data-parallel region
# CHECK-DAG: multicrop_pipelines.py:[[@LINE+21]]:63: warning: generator 'random' (global) is used inside the per-example data-parallel region
# CHECK-DAG: multicrop_pipelines.py:[[@LINE+27]]:18: warning: generator 'torch' (global) is used inside the per-example data-parallel region
# CHECK-DAG: multicrop_pipelines.py:[[@LINE+29]]:20: warning: generator 'torch' (global) is used inside the per-example data-parallel region
# CHECK-NOT: may draw
# CHECK: 4 warning(s)
import random

import numpy as np
import torch
import torchvision.transforms as transforms
from PIL import ImageFilter
from torch.utils.data import DataLoader
from torchvision import datasets


class Blur(object):
    def __init__(self, p=0.5):
        self.prob = p

    def __call__(self, img):
        if np.random.rand() <= self.prob:
            return img.filter(ImageFilter.GaussianBlur(radius=random.uniform(0.1, 2.0)))
        return img


class MultiCrop(datasets.ImageFolder):
    def __init__(self, path, sizes, counts):
        super().__init__(path)
        color = [transforms.ColorJitter(0.4, 0.4), Blur()]
        trans = []
        for i in range(len(sizes)):
            crop = transforms.RandomResizedCrop(sizes[i])
            trans.extend([transforms.Compose([crop, transforms.Compose(color),
                                              transforms.ToTensor()])] * counts[i])
        self.trans = trans

    def __getitem__(self, index):
        path, _ = self.samples[index]
        image = self.loader(path)
        return list(map(lambda t: t(image), self.trans))


ds = MultiCrop("data", [32, 16], [2, 4])
loader = DataLoader(ds, batch_size=4, num_workers=2)
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for crops in loader:
    loss = sum(model(c.mean((2, 3))).sum() for c in crops)
    opt.zero_grad()
    loss.backward()
    opt.step()

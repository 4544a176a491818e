"""SwAV's dataset: a subclass of torchvision's ImageFolder reading each
image with the loader the base class keeps (`self.loader(path)`) and
making several random crops of it with a list of transforms."""
import os
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class MultiCropDataset(datasets.ImageFolder):
    def __init__(self, root, n_crops):
        super().__init__(root)
        self.trans = [transforms.Compose([
            transforms.RandomResizedCrop(8, scale=(0.3, 1.0)),
            transforms.RandomHorizontalFlip(),
            transforms.ToTensor(),
        ])] * n_crops

    def __getitem__(self, index):
        path, label = self.samples[index]
        image = self.loader(path)
        crops = list(map(lambda t: t(image), self.trans))
        return torch.stack(crops), label


def write_images(root):
    rng = np.random.RandomState(0)
    for cls in ("a", "b"):
        os.makedirs(os.path.join(root, cls), exist_ok=True)
        for i in range(12):
            pixels = rng.randint(0, 255, (12, 12, 3), dtype=np.uint8)
            Image.fromarray(pixels).save(os.path.join(root, cls, f"{i}.png"))


def train(loader, model, opt, epoch):
    for it, (crops, y) in enumerate(loader):
        x = crops.flatten(0, 1).flatten(1)
        loss = F.cross_entropy(model(x), y.repeat_interleave(2))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("done", epoch, it, flush=True)


def main(out):
    torch.manual_seed(0)
    root = tempfile.mkdtemp()
    write_images(root)
    model = nn.Sequential(nn.Linear(192, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loader = DataLoader(MultiCropDataset(root, 2), batch_size=4, shuffle=True, num_workers=2)
    for epoch in range(3):
        train(loader, model, opt, epoch)
    torch.save(model.state_dict(), out)


if __name__ == "__main__":
    main(sys.argv[1])

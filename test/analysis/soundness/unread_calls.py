# Sound by default (issue 42): a call of code detc does not read inside a
# data-parallel region may draw, and says so under its own rule
# (detc-may-draw) instead of staying silent: a library no table models
# (albumentations, timm: declared `unread` in api/python.api), a module detc
# cannot find, a method of an object such a library made, a name chosen at
# run time with getattr, a parameter nothing in the program binds. Calls of
# modules declared quiet (PIL, os, tqdm; apex.amp inside apex), of the
# objects they make and those objects' parts (matplotlib's `fig, ax =
# plt.subplots()`, `fig.canvas.draw()`), and calls
# outside every region are no findings; `# detc: ignore[detc-may-draw]`
# suppresses one.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc analyze %s --format=json | FileCheck %s --check-prefix=JSON
# CHECK-NOT: cannot resolve import 'albumentations'
# CHECK: warning: cannot resolve import 'mystery_aug'
import os
import random

import albumentations as A
import matplotlib.pyplot as plt
import numpy as np
import timm
import torch
from apex import amp
from mystery_aug import mix
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from tqdm import tqdm


class Pairs(Dataset):
    def __init__(self, files, op):
        self.files = files
        self.aug = A.Compose([A.HorizontalFlip(p=0.5)])
        self.tok = timm.data.create_transform(224)
        self.op = getattr(np, op)

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        path = os.path.join("data", self.files[i])
        img = np.asarray(Image.open(path).convert("RGB"))
# CHECK: unread_calls.py:[[@LINE+2]]:15: warning: may draw: 'self.aug' calls code detc could not read, inside the per-example data-parallel region that starts at {{.*}}unread_calls.py:[[@LINE+22]]:5 [detc-may-draw]
# CHECK: note: 'self.aug' is library 'albumentations', whose code detc does not read
        img = self.aug(image=img)["image"]
# CHECK: unread_calls.py:[[@LINE+2]]:15: warning: may draw: 'mix'
# CHECK: note: 'mix' is module 'mystery_aug', which detc could not find and no API table models
        img = mix(img)
# CHECK: unread_calls.py:[[@LINE+2]]:15: warning: may draw: 'self.tok.transform'
# CHECK: note: 'self.tok.transform' is library 'timm'
        img = self.tok.transform(img)
# CHECK: unread_calls.py:[[@LINE+2]]:15: warning: may draw: 'self.op'
# CHECK: note: 'self.op' is a name of 'numpy' chosen at run time (getattr with a computed name)
        img = self.op(img)
        img = self.helper(img)
        return torch.from_numpy(img)

    def helper(self, img):
        return mix(img)  # detc: ignore[detc-may-draw] -- audited


def train(model, loader, opt):
    # Outside every region: no finding.
    mix(None)
    for x in tqdm(loader):
        opt.zero_grad()
# CHECK: unread_calls.py:[[@LINE+3]]:16: warning: may draw: 'model' calls code detc could not read, inside the per-batch data-parallel region
# CHECK: note: 'model' is library 'timm'
# CHECK-NOT: amp.scale_loss
        loss = model(x).sum()
        with amp.scale_loss(loss, opt) as scaled:
            scaled.backward()
        opt.step()
        fig, ax = plt.subplots(figsize=(4, 3))
        ax.plot([loss.item()])
        fig.canvas.draw()
        plt.close(fig)


if __name__ == "__main__":
    torch.manual_seed(0)
    random.seed(0)
    loader = DataLoader(Pairs(["a.png"], "flip"), batch_size=2,
                        num_workers=2)
    model = timm.create_model("vit_tiny_patch16_224", drop_path_rate=0.1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train(model, loader, opt)
# CHECK-NOT: may draw
# CHECK: 5 warning(s)
# JSON: "rule": "detc-may-draw"

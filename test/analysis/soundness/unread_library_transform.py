# DeiT-shaped (issue 42): a dataset's transform made by a library detc
# does not read (timm's create_transform: RandAugment, random erasing) is
# called by the dataset on every example, and a timm Mixup is called on
# every batch of a loop over a logger's generator method that yields the
# loader's batches: both may draw (detc-may-draw), never silence. A model
# that one branch builds with torchvision and another loads through
# torch.hub may run a repository's code. Parts of timm declared quiet in
# api/python.api (its losses, accuracy) are no findings.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc analyze %s 2>&1 | FileCheck %s --check-prefix=TF
import torch
import torchvision
from timm.data import Mixup, create_transform
from timm.loss import SoftTargetCrossEntropy
from timm.utils import accuracy
from torchvision import datasets


class MetricLogger:
    def log_every(self, iterable, freq):
        for i, obj in enumerate(iterable):
            yield obj


def train_one_epoch(model, loader, opt, mixup_fn, criterion):
    logger = MetricLogger()
    for samples, targets in logger.log_every(loader, 10):
# CHECK: unread_library_transform.py:[[@LINE+2]]:28: warning: may draw: 'mixup_fn' calls code detc could not read, inside the per-batch data-parallel region
# CHECK: note: 'mixup_fn' is library 'timm'
        samples, targets = mixup_fn(samples, targets)
# CHECK: unread_library_transform.py:[[@LINE+2]]:16: warning: may draw: 'model' calls code detc could not read, inside the per-batch data-parallel region
# CHECK: note: 'model' is code of 'torch.hub.load' that detc does not read
        loss = model(samples).sum()
# CHECK-NOT: may draw: 'criterion'
# CHECK-NOT: may draw: 'accuracy'
        print(criterion(samples, targets), accuracy(samples, targets))
        opt.zero_grad()
        loss.backward()
        opt.step()


def main(arch):
# TF: unread_library_transform.py:[[@LINE+3]]:55: warning: may draw: 'tf' calls code detc could not read, inside the per-example data-parallel region
# TF: note: 'tf' is library 'timm'
    tf = create_transform(224, is_training=True, auto_augment="rand-m9")
    dataset = datasets.ImageFolder("train", transform=tf)
    loader = torch.utils.data.DataLoader(dataset, batch_size=64,
                                         num_workers=4)
    if arch == "resnet50":
        model = torchvision.models.resnet50()
    else:
        model = torch.hub.load("facebookresearch/xcit:main", arch)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    train_one_epoch(model, loader, opt, Mixup(mixup_alpha=0.8),
                    SoftTargetCrossEntropy())


main(input())
# CHECK: 3 warning(s)

# kekmodel/FixMatch-pytorch's shapes:
# - datasets deriving from torchvision's CIFAR10 that hand their transform
#   to its constructor (`super().__init__(root, transform=transform)`) and
#   call `self.transform(img)` in `__getitem__`: a Compose for the labeled
#   set, an object of the program's class (TransformFixMatch with a
#   RandAugment of its own) for the unlabeled one; both run per example;
# - batches fetched with the iterator's own method (`labeled_iter.next()`)
#   in `for batch_idx in range(eval_step)`: a per-batch region;
# - a model module imported inside a branch that does not parse: a
#   warning, its names unknown (the model may draw), not an error.
# Before, the analysis stopped at the syntax error; with it fixed, only
# the model's dropout was found.
# RUN: detc analyze --path %S/Inputs %s 2>&1 | FileCheck %s
# CHECK: broken.py:6:9: warning: module 'fixmatch_models.broken' does not parse (invalid syntax: unexpected '.'): importing it raises SyntaxError, and what it defines is unknown to detc [detc-unparsable-module]
import argparse
import random

import numpy as np
import torch
from torch.utils.data import DataLoader, RandomSampler
from torchvision import datasets, transforms


class RandAugmentMC:
    def __init__(self, n):
        self.n = n

    def __call__(self, img):
        # CHECK-DAG: fixmatch_shapes.py:[[@LINE+1]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}fixmatch_shapes.py:[[@LINE+50]]:35
        if random.random() < 0.5:
            # CHECK-DAG: fixmatch_shapes.py:[[@LINE+1]]:25: warning: generator 'np.random' (global) is used inside the per-example data-parallel region
            img = img * np.random.uniform(0.5, 1.0)
        return img


class TransformFixMatch:
    def __init__(self):
        self.weak = transforms.Compose([transforms.ToTensor()])
        self.strong = transforms.Compose([transforms.ToTensor(), RandAugmentMC(2)])

    def __call__(self, x):
        return self.weak(x), self.strong(x)


class CIFAR10SSL(datasets.CIFAR10):
    def __init__(self, root, train=True, transform=None):
        super().__init__(root, train=train, transform=transform, download=False)

    def __getitem__(self, index):
        img, target = self.data[index], self.targets[index]
        if self.transform is not None:
            img = self.transform(img)
        return img, target


def create_model(arch):
    if arch == "wide":
        import fixmatch_models.wide as models
        return models.Wide(drop_rate=0.3)
    import fixmatch_models.broken as models
    return models.build(10)


def train(args):
    labeled = CIFAR10SSL("./data", transform=transforms.Compose([
        # CHECK-DAG: fixmatch_shapes.py:[[@LINE+1]]:9: warning: generator 'torch' (global) is used inside the per-example data-parallel region
        transforms.RandomHorizontalFlip()]))
    unlabeled = CIFAR10SSL("./data", transform=TransformFixMatch())
    labeled_loader = DataLoader(labeled, sampler=RandomSampler(labeled),
                                batch_size=4, num_workers=2)
    unlabeled_loader = DataLoader(unlabeled, sampler=RandomSampler(unlabeled),
                                  batch_size=8, num_workers=2)
    model = create_model(args.arch)
    opt = torch.optim.SGD(model.parameters(), lr=0.03)
    labeled_iter = iter(labeled_loader)
    unlabeled_iter = iter(unlabeled_loader)
    for batch_idx in range(args.eval_step):
        try:
            inputs_x, targets_x = labeled_iter.next()
        except StopIteration:
            labeled_iter = iter(labeled_loader)
            inputs_x, targets_x = labeled_iter.next()
        try:
            (inputs_u_w, inputs_u_s), _ = unlabeled_iter.next()
        except StopIteration:
            unlabeled_iter = iter(unlabeled_loader)
            (inputs_u_w, inputs_u_s), _ = unlabeled_iter.next()
        # CHECK-DAG: fixmatch_shapes.py:[[@LINE+1]]:18: warning: may draw: 'model' calls code detc could not read, inside the per-batch data-parallel region that starts at {{.*}}fixmatch_shapes.py:[[@LINE-11]]:5
        logits = model(torch.cat((inputs_x, inputs_u_w, inputs_u_s)))
        loss = logits.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="wide")
    parser.add_argument("--eval-step", type=int, default=4)
    train(parser.parse_args())
# CHECK-DAG: wide.py:12:24: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: 5 warning(s)

# Idiom 4 (issue 17): objects made in a helper module and returned in a
# tuple (`train_loader, test_loader = get_loaders(args)`, the loader options
# in a dict with setdefault and {**kwargs, ...}, workers from the command
# line: unknown, so possibly parallel), a model and optimizer returned
# together by a helper (`model, opt = build(args)`, the model from a factory
# chosen by a string: `models.__dict__[args.arch]()`), and the transform
# stored on the loader's dataset after it was built (`train_loader.dataset.
# transform = build_aug(args)`). The random crop of that transform runs per
# example in the training loop's workers; the model is some torchvision
# architecture, which may have dropout: its forward may draw per batch.
# RUN: detc analyze %s --path %S/Inputs/loader_helpers 2>&1 | FileCheck %s
# CHECK: data_setup.py:7:23: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}tuple_helpers.py:[[@LINE+29]]:9 [detc-unsafe-rng]
# CHECK: tuple_helpers.py:[[@LINE+11]]:13: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}tuple_helpers.py:[[@LINE+28]]:9 [detc-unsafe-rng]
# CHECK: 2 warning(s); unsafe generators (ERR): 'torch' (global)
import argparse

import torch
import torchvision.models as models

from data_setup import build_aug, get_loaders


def build(args):
    model = models.__dict__[args.arch](num_classes=10)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return model, opt


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="resnet18")
    parser.add_argument("--size", type=int, default=24)
    parser.add_argument("-b", "--batch-size", type=int, default=16)
    parser.add_argument("-j", "--workers", type=int, default=2)
    args = parser.parse_args()
    train_loader, test_loader = get_loaders(args)
    train_loader.dataset.transform = build_aug(args)
    model, opt = build(args)
    for epoch in range(2):
        model.train()
        for x, y in train_loader:
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()


if __name__ == "__main__":
    main()

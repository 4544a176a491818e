# The shape of akamaster/pytorch_resnet_cifar10's trainer: a model picked
# from a module's `__dict__` by name, then a DataLoader built inline, its
# dataset's transforms unnamed expressions. The lowering names such values
# with numbered temporaries; the first pass resolved the model's call
# differently from the later ones (the name lookup may also give the
# module's `_weights_init`), so the numbering moved, and the later passes
# read what an earlier pass had recorded for the same number: the model's
# forward "built" the RandomCrop, the Compose applied the wrong parts, and
# in the trainer, the crop was "left nondeterministic inside a batch
# region" (the session-58 binary; --strict refused the script).
# Temporaries' facts are now dropped before each pass.
# RUN: rm -rf %t.dir && cp -r %S/Inputs/temporaries_across_passes %t.dir
# RUN: mkdir %t.dir/.git && cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s
# RUN: cd %t.dir && detc transform train.py --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: cd %t.dir && detc train.py --emit=mlir --python none 2>/dev/null | FileCheck %s --check-prefix=IR
# CHECK: train.py:[[@LINE+32]]:13: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at train.py:[[@LINE+37]]:9
# DIAG-NOT: left nondeterministic
# DIAG-NOT: detc-unrewritable
# The model's forward builds what the name lookup may give (and no
# transform); each part of the Compose is applied once, as itself.
# IR: detc.build "{{b[0-9]+_[0-9]+}}" defs ["model"] {{.*}}api = "torch.nn.DataParallel"
# IR-NEXT: detc.parallel per_batch
# IR-NEXT: detc.forward "{{[$][0-9]+}}" builds ["{{b[0-9]+_[0-9]+}}", "resnet:{{b[0-9]+_[0-9]+}}"] uses
# IR: detc.build "[[CROP:b[0-9]+_[0-9]+]]" {{.*}}api = "torchvision.transforms.RandomCrop"
# IR: detc.build "[[TENSOR:b[0-9]+_[0-9]+]]" {{.*}}api = "torchvision.transforms.ToTensor"
# IR: detc.build "{{b[0-9]+_[0-9]+}}" {{.*}}api = "torchvision.transforms.Compose"
# IR-NEXT: detc.forward "{{[$][0-9]+}}" builds ["[[CROP]]"] uses
# IR-NEXT: detc.forward "{{[$][0-9]+}}" builds ["[[TENSOR]]"] uses
import argparse

import torch
import torchvision.datasets as datasets
import torchvision.transforms as transforms

import resnet

parser = argparse.ArgumentParser()
parser.add_argument('--arch', default='resnet20')
parser.add_argument('--workers', type=int, default=2)


def main():
    args = parser.parse_args()
    model = torch.nn.DataParallel(resnet.__dict__[args.arch]())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train_loader = torch.utils.data.DataLoader(
        datasets.FakeData(size=16, image_size=(3, 8, 8), transform=transforms.Compose([
            transforms.RandomCrop(8, 2),
            transforms.ToTensor(),
        ])),
        batch_size=4, shuffle=True, num_workers=args.workers)
    for epoch in range(2):
        for x, y in train_loader:
            loss = model(x.flatten(1)[:, :8]).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


if __name__ == '__main__':
    main()

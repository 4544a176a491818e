# A name imported in each branch of an `if` (rosinality/stylegan2-pytorch:
# `from model import Generator` for the default --arch, `from swagan import
# Generator` otherwise) is every class it may be. The lowering bound the
# name to the last import only: the default model's draw was missed.
# RUN: rm -rf %t.dir && cp -r %S/Inputs/conditional_imports %t.dir
# RUN: cp %s %t.dir/conditional_imports.py
# RUN: detc analyze %t.dir/conditional_imports.py --python none 2>&1 | FileCheck %s
# CHECK-DAG: stylegan.py:10:12: warning: generator 'random' (global) is used inside the per-batch data-parallel region
# CHECK-DAG: waveletgan.py:9:28: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: 2 warning(s)
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset


def train(gen, opt, loader):
    for (x,) in loader:
        loss = gen(x).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--arch", default="style")
    args = p.parse_args()
    if args.arch == "style":
        from stylegan import Generator
    elif args.arch == "wavelet":
        from waveletgan import Generator
    gen = Generator()
    opt = torch.optim.SGD(gen.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.ones(8, 4)), batch_size=2)
    train(gen, opt, loader)

# Sound by default: a method called on a value nothing detc tracks
# reaches (built by a call into an argument no caller binds, kept in an
# attribute) may be anything, so inside a data-parallel region it is a
# detc-may-draw finding of its own. Its name decides: one that
# torch.Tensor, numpy.ndarray, PIL.Image.Image, str, re.Match, a file, a
# list, dict or set has (listed by api/derive_torch_names.py from the
# libraries and Python themselves: a logger's `tag.replace('.', '/')` over
# named_parameters(), a text dataset's `m.group(1)`, a log file's
# `self.log.write(...)`, which were 30 findings in guided-diffusion's
# logger; HRNet's `x.append(...)` on what a library call returned), or a
# pathlib.Path (3D-ResNets' `image_path.exists()`, `path.open('rb')` on
# paths joined from a lambda's arguments: two findings) is taken as that
# type's
# method; one with a random
# name (Tensor.multinomial) is not on that list and may draw; `super()`'s
# methods are the bases', which the lowering resolves.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: 'x.transpose'
# CHECK-NOT: 'img.rotate'
# CHECK-NOT: 'img.astype'
# CHECK-NOT: 'self.name.lower'
# CHECK-NOT: 'm.group'
# CHECK-NOT: 'self.log.write'
# CHECK-NOT: 'self.log.flush'
# CHECK-NOT: 'outs.append'
# CHECK-NOT: 'meta.setdefault'
# CHECK-NOT: 'self.root.exists'
# CHECK-NOT: 'self.root.open'
# CHECK-NOT: super
import re

import torch
from torch.utils.data import DataLoader, Dataset


class Ops(Dataset):
    def __init__(self, cfg, image):
        super().__init__()
        self.ops = cfg.build_ops()
        self.image = image
        self.name = cfg.name
        self.pattern = cfg.pattern
        self.log = open(cfg.log_path, "a")
        self.root = cfg.root

    def __len__(self):
        return 8

    def __getitem__(self, i):
        x = self.image.tensor().transpose(0, 1)
        img = self.image.rotate(90).astype("float32")
        tag = self.name.lower().replace(".", "/")
        m = re.match(self.pattern, tag)
        label = m.group(1)
        self.log.write(tag + "\n")
        self.log.flush()
        outs = self.image.split()
        outs.append(x)
        meta = self.image.info()
        meta.setdefault("size", 1)
        if self.root.exists():
            with self.root.open("rb") as f:
                f.read()
        for op in self.ops:
# CHECK: untraced_receivers.py:[[@LINE+2]]:17: warning: may draw: 'op.process' calls code detc could not read, inside the per-example data-parallel region that starts at {{.*}}untraced_receivers.py:[[@LINE+11]]:5 [detc-may-draw]
# CHECK: note: 'op.process' is method 'process' of a value detc cannot trace (made where detc cannot see); no library type detc knows has a method of that name
            x = op.process(x)
# CHECK: untraced_receivers.py:[[@LINE+1]]:13: warning: may draw: 'x.multinomial'
        k = x.multinomial(1)
        return x, k, img, label, outs, meta


def main(cfg, image):
    torch.manual_seed(0)
    loader = DataLoader(Ops(cfg, image), batch_size=2, num_workers=2)
    for x, k, img, label, outs, meta in loader:
        print(x.sum())


if __name__ == "__main__":
    main(None, None)

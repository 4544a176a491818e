# A head picked by name from a plugin package (`importlib.import_module(
# "plugins." + args.head)`), one of whose modules CPython cannot compile (a
# stray module-level `return`): only the runs that pick that plugin fail.
# detc's checks of such a module are warnings (detc-invalid-module); the
# analysis goes on and finds the dropout of the plugin that loads (it
# stopped with exit 2 on the other module's error). A module every run
# imports that fails the same check stays an error.
# RUN: rm -rf %t && mkdir -p %t && cp %s %t/train.py
# RUN: cp -r %S/Inputs/invalid_module/plugins %t/
# RUN: detc analyze %t/train.py 2>&1 | FileCheck %s --implicit-check-not=error:
# RUN: sed -e 's/^import importlib$/import plugins.stale/' %t/train.py > %t/always.py
# RUN: not detc analyze %t/always.py 2>&1 | FileCheck %s --check-prefix=ALWAYS
# CHECK-DAG: stale.py:12:1: warning: 'return' outside function (in module 'plugins.stale', which not every run loads) [detc-invalid-module]
# CHECK-DAG: noisy.py:10:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# ALWAYS: stale.py:12:1: error: 'return' outside function
import argparse
import importlib

import torch
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--head", default="noisy")
    args = parser.parse_args()
    head = importlib.import_module("plugins." + args.head).Head()
    opt = torch.optim.SGD(head.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(16, 8),
                                      torch.randint(0, 2, (16,))),
                        batch_size=4)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(head(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()

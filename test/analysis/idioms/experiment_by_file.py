# An experiment chosen by a file named on the command line, in the shape of
# YOLOX (`get_exp(args.exp_file)`: the file's folder put on sys.path, the
# module imported by its file name, its class `Exp` instantiated; every
# experiment file subclasses the library's base `Exp`). The module's name
# is unknown, but the attribute read from it is not: it may be the class
# `Exp` of any of the project's files defining one at top level, and each
# is analysed (exps/noisy.py's model, exps/plain.py's inherited one).
# Also YOLOX's: a DataLoader subclass imported from the program's package
# inside the method building the loader (`from detlib.data import Loader`:
# a loader, its dataset's draws per example), and a prefetcher whose
# `next()` takes a batch from `iter(loader)` (the finding shows the
# training loop that calls it). Before, the experiment was
# unknown, no loop a batch loop, and nothing was found (YOLOX: 0 findings).
# RUN: rm -rf %t.dir && cp -r %S/Inputs/experiment_by_file %t.dir
# RUN: mkdir %t.dir/.git && cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: detlib/build.py:10:14: warning: modules imported by name at run time are unknown to detc
# CHECK-DAG: detlib/data.py:12:45: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at train.py:[[@LINE+21]]:5
# CHECK-DAG: detlib/exp.py:8:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+20]]:5
# CHECK-DAG: exps/noisy.py:12:34: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+19]]:5
# CHECK: 3 warning(s)
import argparse

import torch

from detlib.build import get_exp
from detlib.prefetch import Prefetcher

parser = argparse.ArgumentParser()
parser.add_argument("-f", "--exp_file", default="exps/noisy.py")
args = parser.parse_args()
torch.manual_seed(0)
exp = get_exp(args.exp_file)
model = exp.get_model()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = exp.get_loader(8)
for epoch in range(2):
    fetcher = Prefetcher(loader)
    for it in range(len(loader)):
        x, y = fetcher.next()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

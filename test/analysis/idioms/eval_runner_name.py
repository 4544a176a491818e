# A class picked by a name eval() computes from a flag, as ncsn picks its
# runner: `from runners import *`, then `runner = eval(args.runner)(args,
# config)` and `runner.train()`. The string may name anything the module
# defines or imports: each class it may be is constructed and its methods
# run (the runners' noise and dropout in their training loops); the eval
# stays a construct detc cannot see (it may be any expression). Before:
# the call was unknown, and nothing of the runners was found (ncsn: 0
# draws).
# RUN: rm -rf %t.dir && cp -r %S/Inputs/eval_runner %t.dir
# RUN: mkdir %t.dir/.git && cp %s %t.dir/main.py
# RUN: cd %t.dir && detc analyze main.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: main.py:[[@LINE+12]]:10: warning: 'eval' of a computed string runs code detc cannot see
# CHECK-DAG: runners/anneal.py:16:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at runners/anneal.py:15:9
# CHECK-DAG: runners/anneal.py:17:37: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at runners/anneal.py:15:9
# CHECK-DAG: runners/plain.py:12:58: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at runners/plain.py:15:9
import argparse

from runners import *

parser = argparse.ArgumentParser()
parser.add_argument("--runner", default="AnnealRunner")
args = parser.parse_args()
config = {"lr": 0.1}
runner = eval(args.runner)(args, config)
runner.train()

# A model and dataset registry in the shape of pix2pix, CycleGAN, CUT and
# SPADE (models/__init__.py: `importlib.import_module("models." + name +
# "_model")`, then the class found in the module's `__dict__`), and the
# dataset wrapped by a class whose `__iter__` yields the loader's batches
# (`CustomDatasetDataLoader`; the training loop is `for i, data in
# enumerate(dataset)`). The module name is a head the source shows: every
# module of the package `models` (and `data`) it may load is the program's
# and is analysed (in its subpackages too: the unknown part of the name
# may hold dots); iterating the wrapper iterates its loader. Before, the
# imports were "modules imported by name at run time are unknown", the loop
# no batch loop, and nothing was found (taesungp/contrastive-unpaired-
# translation: 0 findings).
# RUN: rm -rf %t.dir && cp -r %S/Inputs/registry_by_name %t.dir
# RUN: cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# RUN: cd %t.dir && detc transform train.py --emit-python --python none -o %t.out.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.out.py
# CHECK-DAG: data/flip_dataset.py:14:12: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at train.py:[[@LINE+22]]:5
# CHECK-DAG: models/noisy_model.py:10:51: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+21]]:5
# CHECK-DAG: models/noisy_model.py:18:33: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+20]]:5
# CHECK-DAG: models/extra/deep_model.py:13:15: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK: 4 warning(s)
# KEYED: _detc_rt.key_imported_loaders({{[0-9]+}}, gens=((1, "torch"), (2, "random"))
# KEYED: _detc_rt.key_imported_layers({{[0-9]+}}, 1, ("torch.nn.Dropout",))
import argparse

import torch

from data import create_dataset
from models import create_model

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="noisy")
parser.add_argument("--dataset_mode", default="flip")
opt = parser.parse_args()
torch.manual_seed(0)
dataset = create_dataset(opt)
model = create_model(opt)
for epoch in range(2):
    for i, data in enumerate(dataset):
        model.set_input(data)
        model.optimize_parameters()

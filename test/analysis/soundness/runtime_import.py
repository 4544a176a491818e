# A model whose class comes from a module imported by a name computed at
# run time (`importlib.import_module(f"pkg.models.{cfg.type}.{cfg.name}")`
# then `getattr(module, "Network")(cfg)`, as hysts'
# pytorch_image_classification builds its models): the module may be any
# module, so the model's forward may draw. Before, the model was taken for
# a harmless library value (importlib is a quiet module) and its forward
# in the training loop was silent.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc analyze %s 2>&1 | FileCheck %s --check-prefix=DDP
# CHECK: runtime_import.py:[[@LINE+9]]:14: warning: modules imported by name at run time are unknown to detc [detc-unknown-construct]
import argparse
import importlib

import torch
from torch.utils.data import DataLoader, TensorDataset


def create_model(name):
    module = importlib.import_module("pkg.models." + name)
    model = getattr(module, "Network")(name)
    model.to("cpu")
    return model


def wrap(model):
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        # The replicas run the same code as the forward in the loop, which
        # is reported there: no second finding at the wrapper's line (the
        # Time-Series-Library's `nn.DataParallel(model)` of a model from
        # `importlib` had one, pointing at the construction).
        # DDP-NOT: runtime_import.py:[[@LINE+1]]:59: warning
        model = torch.nn.parallel.DistributedDataParallel(model)
    else:
        model.to("cpu")
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="resnet")
    args = parser.parse_args()
    # A constant name is a module detc looks up as any import.
    # CHECK-NOT: runtime_import.py:[[@LINE+1]]:5: warning
    importlib.import_module("json")
    model = create_model(args.model)
    model = wrap(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2,
                        num_workers=2)
    for (x,) in loader:
        # CHECK: runtime_import.py:[[@LINE+2]]:16: warning: may draw: 'model' calls code detc could not read, inside the per-batch data-parallel region
        # CHECK-NEXT: {{ +}}loss = model(x).sum()
        loss = model(x).sum()
        # CHECK: note: 'model' is code of a module imported by a name computed at run time (importlib.import_module), which may be any module: any code, random draws included
        opt.zero_grad()
        loss.backward()
        opt.step()


main()
# CHECK: 1 warning(s)

# Models a library builds by name from builders the program registers
# with the library's decorator (timm's `@register_model` and
# `create_model(args.model)`, as ConvNeXt, DeiT and MAE write it), and
# program classes deriving from the library's model class. The decorator
# is given the builder: what `create_model` returns may be what any
# builder registered with that library returns, so calling the model runs
# the program's forwards (their dropout is found where it is built), as
# well as code detc cannot read (the library's own models: may draw). A
# subclass of a library model read from source is a model (calling it
# runs its forward, whose library layers draw); without the source, they
# may draw. Before, the model was only "a value create_model returned"
# and nothing in the program's models was reported. A library function
# whose code draws (weight initialisation) makes no loader.
# RUN: env PYTHONPATH=%S/Inputs/site-packages detc analyze --python %python %s 2>&1 | FileCheck %s --check-prefixes=CHECK,READ
# RUN: env PYTHONPATH=%S/Inputs/site-packages detc analyze --python none %s 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
# RUN: env PYTHONPATH=%S/Inputs/site-packages detc %s --emit=mlir --python %python | FileCheck %s --check-prefix=IR
# IR-NOT: detc.batches "{{.*}}make_layer
# IR-NOT: library_loader
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from fakezoo import VisionTransformer, create_model, make_layer, register_model


class Net(nn.Module):
    def __init__(self, drop=0.1):
        super().__init__()
        self.fc = nn.Linear(8, 2)
        # CHECK-DAG: model_registry.py:[[@LINE+1]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}model_registry.py:[[@LINE+37]]:5
        self.drop = nn.Dropout(drop)

    def forward(self, x):
        return self.fc(self.drop(x))


class Distilled(VisionTransformer):
    def forward(self, x):
        # The layers the library's __init__ sets are the base class's (a
        # union of what it may do: its dropout draws).
        # READ-DAG: model_registry.py:[[@LINE+1]]:13: warning: draws: 'self.pos_drop' runs library code that draws
        x = self.pos_drop(self.patch_embed(x))
        return self.head(x)


@register_model
def net_small(pretrained=False, **kwargs):
    return Net(**kwargs)


@register_model
def distilled_tiny(pretrained=False, **kwargs):
    return Distilled(width=8, **kwargs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="net_small")
    args = parser.parse_args()
    model = create_model(args.model, drop_rate=0.2)
    head = make_layer(8)
    for name, p in model.named_parameters():
        p.requires_grad = "head" not in name
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(16, 8)), batch_size=4,
                        num_workers=2)
    for (x,) in loader:
        # CHECK-DAG: model_registry.py:[[@LINE+3]]:16: warning: may draw: 'model' calls code detc could not read
        # A value a library function returned: its type is unknown.
        # CHECK-DAG: model_registry.py:[[@LINE+1]]:33: warning: may draw: 'head' calls code detc could not read
        loss = model(x).sum() + head(x).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
# READ: 6 warning(s)
# NONE: 3 warning(s)

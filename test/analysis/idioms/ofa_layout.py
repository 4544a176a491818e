# Three shapes of Once-for-All's training code, each of which hid its
# training loop or its model from detc (0 findings before):
#  - the run config caches its data provider in its namespace
#    (`self.__dict__["_data_provider"] = ...`, read back the same way by a
#    @property): `obj.__dict__["name"]` is attribute `name` of obj;
#  - the loader class is chosen at run time between a copy of torch's
#    DataLoader the program defines (deriving from object, `__init__`
#    taking the dataset first) and torch's own: a drop-in loader, so the
#    loop over it is a data-parallel region (the library alternative was
#    lost);
#  - a layer derives from a base its package re-exports with star imports
#    (`from ofa.utils import MyModule` inside ofa/utils/layers.py, lowered
#    before the base's module): the class the points-to resolves (before:
#    "module 'ofa', which detc could not find", a may-draw).
# RUN: rm -rf %t.dir && cp -r %S/Inputs/ofa_layout %t.dir
# RUN: mkdir %t.dir/.git && cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: ofa/data/provider.py:12:16: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at train.py:[[@LINE+10]]:5
# CHECK-DAG: ofa/utils/layers.py:10:24: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+9]]:5
# CHECK: 2 warning(s)
import torch

from ofa.data.provider import RunConfig
from ofa.utils.layers import ConvLayer


def train_one_epoch(run_config, net, optimizer):
    for i, images in enumerate(run_config.train_loader):
        loss = net(images).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


net = ConvLayer(4)
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
train_one_epoch(RunConfig([128, 160]), net, optimizer)

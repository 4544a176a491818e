# Objects built from dotted names, in the shape of NVlabs' dnnlib
# (StyleGAN2-ADA, StyleGAN3, EDM): `construct_class_by_name(**G_kwargs)`
# imports a prefix of `G_kwargs.class_name` with importlib.import_module
# and reads the rest with getattr; the names are strings of the script,
# set as an attribute of an EasyDict (a dict whose attributes are its
# entries) or given to its constructor. A call of such a factory also
# calls what each string given to it names, with the call's arguments:
# the generator's, the augmentation's and the loss's draws are found
# (before: the loss was code detc could not read, nothing else was seen).
# The factory's own answer stays (a name detc cannot resolve): calls on
# its results are may-draws too, also through `.train().requires_grad_()`
# (a module's and a tensor's requires_grad_ return the object itself;
# before, that made the unknown answer a known value, and `self.G(z)` was
# no may-draw). A value a compiled plugin loaded by a
# computed name returned is used through tensor methods: those are taken
# as a tensor's (before: a may-draw per method).
# RUN: rm -rf %t.dir && cp -r %S/Inputs/named_factory %t.dir
# RUN: mkdir %t.dir/.git && cp %s %t.dir/train.py
# RUN: cd %t.dir && detc analyze train.py --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: dnnlib/util.py:17:14: warning: modules imported by name at run time are unknown to detc
# CHECK-DAG: training/ops.py:10:19: warning: modules imported by name at run time are unknown to detc
# CHECK-DAG: train.py:[[@LINE+27]]:13: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+26]]:5
# CHECK-DAG: training/nets.py:10:35: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+25]]:5
# CHECK-DAG: training/nets.py:19:16: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at train.py:[[@LINE+24]]:5
# CHECK-DAG: training/loss.py:11:15: warning: may draw: 'self.G' calls code detc could not read
# CHECK-DAG: training/loss.py:13:19: warning: may draw: 'self.augment' calls code detc could not read
# CHECK-DAG: training/ops.py:15:12: warning: may draw: 'plugin().fused_act' calls code detc could not read
# CHECK-DAG: train.py:[[@LINE+25]]:9: warning: may draw: 'opt.step' calls code detc could not read
# CHECK: 7 warning(s)
import torch
from torch.utils.data import DataLoader, TensorDataset

import dnnlib
from dnnlib import util
from training import ops


def training_loop(G_kwargs={}, loss_kwargs={}, augment_kwargs=None):
    G = util.construct_class_by_name(**G_kwargs).train().requires_grad_(True)
    augment = None
    if augment_kwargs is not None:
        augment = util.construct_class_by_name(**augment_kwargs).train()
    loss = util.construct_class_by_name(G=G, augment=augment, **loss_kwargs)
    opt = util.construct_class_by_name(
        G.parameters(), class_name="torch.optim.Adam", lr=1e-3
    )
    loader = DataLoader(TensorDataset(torch.zeros(8, 4)), batch_size=2)
    for (real,) in loader:
        z = torch.randn(2, 4)
        opt.zero_grad()
        act = ops.fused(real)
        (loss.accumulate(z) + ops.energy(act)).backward()
        opt.step()


c = dnnlib.EasyDict()
c.G_kwargs = dnnlib.EasyDict(class_name=None, z_dim=4)
c.G_kwargs.class_name = "training.nets.Generator"
c.loss_kwargs = dnnlib.EasyDict(class_name="training.loss.GANLoss")
c.augment_kwargs = dnnlib.EasyDict(class_name="training.nets.Augment", p=0.3)
training_loop(**c)

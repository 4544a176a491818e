# A model a registry builds (DeiT's `create_model(args.model)` of timm,
# which calls one of the module's `@register_model` factories, none of them
# called by the program): its forward may change the model (a layer of a
# module detc cannot find), and what it changes was named after the
# factories' local `model`, which nothing tied to the script's variable:
# the session-61 first binary refused the sidecar ("'model' (of
# 'models_r.net_tiny') must be saved but is not visible where the
# checkpoint is written"). The local stands for the variable the forward
# that ran the factory's build was called on: the script's `model`.
# RUN: detc transform %s --emit-python -o %t.py --path %S/Inputs/replay_registry 2>&1 | FileCheck %s --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# DIAG: warning: cannot resolve import 'layers_not_installed'
# DIAG-NOT: detc writes no sidecar
# CHECK: _detc_rt.checkpoint([[SITE:[0-9]+]], torch.save, {"model": lambda: model}, loops=("epoch",))
# CHECK: if _detc_rt.has_value("model"): model = _detc_rt.saved_value("model", lambda: model)
import argparse

import torch
import torch.nn.functional as F
from timm.models import create_model
from torch.utils.data import DataLoader, TensorDataset

import models_r

parser = argparse.ArgumentParser()
parser.add_argument("--model", default="net_tiny")
args = parser.parse_args()
model = create_model(args.model)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(16, 6), torch.arange(16) % 3),
                    batch_size=4, shuffle=True)
for epoch in range(3):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"opt": opt.state_dict(), "epoch": epoch}, "out.pt")

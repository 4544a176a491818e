# A model built and returned by a factory function of a module (MAE's
# `models_mae.mae_vit_base_patch16_dec512d8b`, timm's registered models)
# whose forward calls code detc cannot read (it may change the model):
# what the forward changes is named after the factory's local, which the
# checkpoint cannot see. The session-60 first binary refused the sidecar
# ("'model' must be saved but is not visible where the checkpoint is
# written"); the local stands for the script's variable the factory's
# return is assigned to, and detc saves that.
# RUN: detc transform %s --emit-python -o %t.py --path %S/Inputs/replay_factory 2>&1 | FileCheck %s --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# DIAG: warning: cannot resolve import 'layers_not_installed'
# DIAG-NOT: detc writes no sidecar
# CHECK: _detc_rt.checkpoint([[SITE:[0-9]+]], torch.save, {"model": lambda: model}, loops=("epoch",))
# CHECK: if _detc_rt.has_value("model"): model = _detc_rt.saved_value("model", lambda: model)
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

import models_x

model = models_x.net_small()
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

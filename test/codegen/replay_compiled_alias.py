# A model compiled with torch.compile (`cmodel = torch.compile(model)`)
# trains through the compiled module, whose state is the model's (its
# state_dict is the model's, under `_orig_mod.`): the checkpoint of
# `model.state_dict()` restores both. The session-63 first binary saved
# `cmodel` again in the sidecar (the whole model a second time, in every
# checkpoint); a GradScaler the checkpoint leaves out is still saved.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: detc %s --emit=mlir --python none | FileCheck %s --check-prefix=IR
# DIAG-NOT: warning
# IR: detc.build "{{[^"]+}}" defs ["@cmodel"] uses ["@model"] attributes {api = "torch.compile", wraps = "@model"}
# CHECK: _detc_rt.checkpoint([[SITE:[0-9]+]], torch.save, {"scaler": lambda: scaler}, loops=("epoch",))({"model": model.state_dict(), "opt": opt.state_dict()}, "ckpt.pt")
# CHECK: if _detc_rt.restoring([[SITE]]):
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(32, 8), torch.randint(0, 2, (32,))),
                    batch_size=8, shuffle=True)
model = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.3), nn.Linear(16, 2))
cmodel = torch.compile(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
scaler = torch.cuda.amp.GradScaler(enabled=torch.cuda.is_available())
for epoch in range(3):
    for x, y in loader:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = F.cross_entropy(cmodel(x), y)
        opt.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, "ckpt.pt")

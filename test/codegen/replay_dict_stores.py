# Entries a script adds to its checkpoint's dict after the display (DINO's
# `save_dict['fp16_scaler'] = fp16_scaler.state_dict()`, ConvNeXt's `if
# model_ema is not None: to_save['model_ema'] = get_state_dict(model_ema)`)
# are loaded back from the checkpoint when it holds them, and checked
# against its digests; the sidecar does not pickle the EMA a second time
# (the session-65 first binary saved `model_ema` whole beside the
# checkpoint: the size of the model again, each checkpoint).
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: detc writes no sidecar
# CHECK: {{^ *}}if _detc_rt.restoring([[S:[0-9]+]]):
# CHECK-NEXT: {{^ *}}_detc_ckpt = _detc_rt.user_checkpoint()
# CHECK-NEXT: {{^ *}}state = _detc_ckpt
# CHECK-NEXT: {{^ *}}model.load_state_dict(_detc_ckpt["model"])
# CHECK-NEXT: {{^ *}}if "scaler" in _detc_ckpt: scaler.load_state_dict(_detc_ckpt["scaler"])
# CHECK-NEXT: {{^ *}}if "model_ema" in _detc_ckpt: _detc_rt.load_unwrapped(model_ema, _detc_ckpt["model_ema"])
# CHECK-NOT: {{^ *}}if _detc_rt.has_value("model_ema")
# CHECK: {{^ *}}_detc_rt.resumed({"model": lambda: model.state_dict(), "scaler": lambda: scaler.state_dict(), "model_ema": lambda: get_state_dict(model_ema)})
import sys

import torch
import torch.nn as nn
from timm.utils import ModelEma, get_state_dict
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.arange(32) % 2),
                    batch_size=8, shuffle=True)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.3), nn.Linear(8, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.cuda.amp.GradScaler(enabled=False)
model_ema = None
if "--ema" in sys.argv:
    model_ema = ModelEma(model, decay=0.9)
for epoch in range(3):
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        if model_ema is not None:
            model_ema.update(model)
    state = {"model": model.state_dict(), "epoch": epoch}
    state["scaler"] = scaler.state_dict()
    if model_ema is not None:
        state["model_ema"] = get_state_dict(model_ema)
    torch.save(state, "ck.pt")

# timm's `get_state_dict(model_ema)` in a checkpoint (DeiT's and CaiT's
# `'model_ema': get_state_dict(model_ema)`): the API table says it returns
# the state dict of its argument (timm.api, `state_of`), so the checkpoint
# saves the EMA model: the restore loads the entry into the model the EMA
# wraps (`load_unwrapped`, checked against the entry's digest), and the
# sidecar does not pickle the EMA a second time (the session-64 first
# binary saved `model_ema` whole beside the checkpoint: 29 MB more for
# DeiT-tiny).
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: detc writes no sidecar
# CHECK: {{^ *}}_detc_rt.checkpoint([[S:[0-9]+]], torch.save, None, loops=("epoch",))({
# CHECK: {{^ *}}if _detc_rt.restoring([[S]]):
# CHECK-NEXT: {{^ *}}_detc_ckpt = _detc_rt.user_checkpoint()
# CHECK-NEXT: {{^ *}}model.load_state_dict(_detc_ckpt['model'])
# CHECK-NEXT: {{^ *}}optimizer.load_state_dict(_detc_ckpt['optimizer'])
# CHECK-NEXT: {{^ *}}_detc_rt.load_unwrapped(model_ema, _detc_ckpt['model_ema'])
# CHECK-NOT: saved_value("model_ema"
# CHECK: {{^ *}}_detc_rt.resumed({'model': lambda: model.state_dict(), 'optimizer': lambda: optimizer.state_dict(), 'model_ema': lambda: get_state_dict(model_ema)})
import torch
import torch.nn as nn
from timm.utils import ModelEma, get_state_dict
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.arange(32) % 2),
                    batch_size=8, shuffle=True)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.3), nn.Linear(8, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model_ema = ModelEma(model, decay=0.9)
for epoch in range(3):
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model_ema.update(model)
    torch.save({'model': model.state_dict(),
                'optimizer': optimizer.state_dict(),
                'model_ema': get_state_dict(model_ema),
                'epoch': epoch}, "ck.pt")

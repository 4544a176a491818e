# Other names of what a checkpoint restores are restored with it: DeiT's,
# MAE's and ConvNeXt's `model_without_ddp = model` (then, distributed,
# `model = DistributedDataParallel(model); model_without_ddp = model.module`)
# with the checkpoint holding `model_without_ddp.state_dict()`, and DINO's
# `teacher_without_ddp` (the teacher, or its DDP wrapper's module) with the
# checkpoint holding `teacher.state_dict()`. The session-62 first binary
# saw `model` and `teacher_without_ddp` as state derived from the training
# that no one restores, and the sidecar pickled both models a second time.
# An average kept in another object (`ema`, a deep copy) is still saved.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: warning
# CHECK: _detc_rt.checkpoint([[SITE:[0-9]+]], torch.save, {"ema": lambda: ema}, loops=("epoch",))({"model": model_without_ddp.state_dict(),
# CHECK: if _detc_rt.restoring([[SITE]]):
# CHECK-NEXT: _detc_ckpt = _detc_rt.user_checkpoint()
# CHECK-NEXT: model_without_ddp.load_state_dict(_detc_ckpt["model"])
# CHECK-NEXT: teacher.load_state_dict(_detc_ckpt["teacher"])
# CHECK-NEXT: opt.load_state_dict(_detc_ckpt["opt"])
# CHECK-NEXT: if _detc_rt.has_value("ema"): ema = _detc_rt.saved_value("ema", lambda: ema)
# CHECK-NEXT: _detc_rt.resumed(
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--distributed", action="store_true")
parser.add_argument("--out", default="ckpt.pt")
args = parser.parse_args()

torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.randint(0, 3, (32,))),
                    batch_size=8, shuffle=True)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 3))
model_without_ddp = model
if args.distributed:
    model = torch.nn.parallel.DistributedDataParallel(model)
    model_without_ddp = model.module
teacher = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 3))
if args.distributed:
    teacher = torch.nn.parallel.DistributedDataParallel(teacher)
    teacher_without_ddp = teacher.module
else:
    teacher_without_ddp = teacher
ema = copy.deepcopy(model_without_ddp)
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(3):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y) + F.mse_loss(model(x), teacher(x))
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for t, p in zip(teacher_without_ddp.parameters(),
                            model_without_ddp.parameters()):
                t.mul_(0.9).add_(p, alpha=0.1)
            for e, p in zip(ema.parameters(), model_without_ddp.parameters()):
                e.mul_(0.99).add_(p, alpha=0.01)
    torch.save({"model": model_without_ddp.state_dict(),
                "teacher": teacher.state_dict(),
                "opt": opt.state_dict()}, args.out)

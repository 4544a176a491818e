# A setup forward's result stored on the script's arguments (RepDistiller's
# `opt.s_dim = feat_s[-1].shape[1]` after `model_s(torch.randn(2, 3, 32,
# 32))`, sizing the distillation head): the forward runs before the loops
# around the checkpoint, and fast-forward runs it again as it ran, so
# `args` is re-derived, not saved. The session-63 first binary counted that
# forward as skipped work: it saved `args` in the sidecar and assigned it
# back on resume, so a resume given another --out wrote into the first
# run's file.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: detc writes no sidecar
# CHECK: {{^}}feat = student(torch.randn(2, 4))
# CHECK-NEXT: {{^}}args.s_dim = feat.shape[1]
# CHECK: _detc_rt.checkpoint([[SITE:[0-9]+]], torch.save, {"head": lambda: head}, loops=("epoch",))(
# CHECK-NOT: saved_value("args"
# CHECK: _detc_rt.resumed(
import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
args = parser.parse_args()
torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.randint(0, 3, (32,))),
                    batch_size=8, shuffle=True)
student = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.Dropout(0.2))
student.eval()
feat = student(torch.randn(2, 4))
args.s_dim = feat.shape[1]
head = torch.nn.Linear(args.s_dim, 3)
opt = torch.optim.SGD(list(student.parameters()) + list(head.parameters()),
                      lr=0.1)
student.train()
for epoch in range(3):
    for x, y in loader:
        loss = F.cross_entropy(head(student(x)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"student": student.state_dict(), "opt": opt.state_dict()},
               args.out)

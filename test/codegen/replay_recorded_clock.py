# A run's folder and checkpoints named after the clock (`timestamp =
# datetime.now().strftime(...)`, pytorch/tutorials' Fashion-MNIST training
# script): a resume re-ran that read in fast-forward and got another time,
# so its log went to a second folder and its later checkpoints under
# another name (the session-76 first binary). The read goes through
# `_detc_rt.recorded`: logged in the sidecars, replayed in fast-forward.
# Reads inside a loop (per-step timings) are left as written.
# RUN: rm -rf %t && mkdir -p %t
# RUN: detc transform %s --emit-python -o %t/train.py
# RUN: FileCheck %s < %t/train.py
# RUN: cd %t && not env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --crash-at 1 2> crash.err
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --detc-resume model_1.pt > resumed.out 2> resumed.err
# RUN: FileCheck %s --check-prefix=RESUMED < %t/resumed.out
# RESUMED: runs 1
# RESUMED-NEXT: checkpoints of one run 4
import argparse
import os
import time
from datetime import datetime

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--crash-at", type=int, default=-1)
args = parser.parse_args()
torch.manual_seed(0)
# CHECK: {{^}}timestamp = _detc_rt.recorded({{[0-9]+}}, datetime.now)().strftime("%H%M%S%f")
timestamp = datetime.now().strftime("%H%M%S%f")
# CHECK: {{^}}started = _detc_rt.recorded({{[0-9]+}}, time.time)()
started = time.time()
run_dir = os.path.join("runs", timestamp)
os.makedirs(run_dir, exist_ok=True)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(8, 4)
for epoch in range(4):
    # CHECK: {{^    }}if _detc_rt.guard(): step_started = time.time(){{ }}
    step_started = time.time()
    opt.zero_grad()
    model(data).pow(2).mean().backward()
    opt.step()
    with open(os.path.join(run_dir, "log.txt"), "a") as log:
        log.write("epoch %d\n" % epoch)
    torch.save({"model": model.state_dict(), "stamp": timestamp},
               "model_%d.pt" % epoch)
    if epoch == args.crash_at:
        raise RuntimeError("crash")
print("runs", len(os.listdir("runs")))
stamps = {torch.load("model_%d.pt" % e)["stamp"] for e in range(4)}
print("checkpoints of one run", 4 if stamps == {timestamp} else 0)

# A just-in-time checkpoint's restart replays the clock reads of the
# script's setup, as a resume does (codegen/replay_recorded_clock.py): a
# run folder named after `datetime.now()` is the failed run's, not a new
# one. The script saves no checkpoint of its own: only its module-level
# code is recorded (a function's read may be a step's). The session-76
# first binary restarted into a second folder.
# RUN: rm -rf %t && mkdir -p %t
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t/train.py
# RUN: FileCheck %s < %t/train.py
# RUN: cd %t && not env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --fail-at 5 2> failed.err
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --detc-restart > restarted.out 2> restarted.err
# RUN: FileCheck %s --check-prefix=RESTARTED < %t/restarted.out
# RESTARTED: runs 1
import argparse
import os
from datetime import datetime

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--fail-at", type=int, default=-1)
args = parser.parse_args()
torch.manual_seed(0)
# CHECK: {{^}}run_dir = os.path.join("runs", _detc_rt.recorded({{[0-9]+}}, datetime.now)().strftime("%H%M%S%f"))
run_dir = os.path.join("runs", datetime.now().strftime("%H%M%S%f"))
os.makedirs(run_dir, exist_ok=True)


def stamp():
    # CHECK: {{^}}    return datetime.now()
    return datetime.now()


loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.randn(32, 1)),
                    batch_size=4, shuffle=True)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
step = 0
for epoch in range(2):
    for x, y in loader:
        step += 1
        if step == args.fail_at:
            raise RuntimeError("injected failure")
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    with open(os.path.join(run_dir, "log.txt"), "a") as log:
        log.write("epoch %d %s\n" % (epoch, stamp()))
print("runs", len(os.listdir("runs")))

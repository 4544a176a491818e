# accelerate's `prepare` hands back its arguments in order, each wrapped
# (api/accelerate.api says why the wrappers draw nothing of their own): the
# prepared model, optimizer and loader are the script's, so their draws are
# found where they are (the loader's dataset, the model's dropout) and the
# optimizer's step is torch's. Since parts unpacked from what code no table
# describes returned became values of unknown type, an undescribed
# `prepare` made every call on them a may-draw (x-transformers'
# train_enwik8.py: 10 of them); a prepared object alone is itself too.
# accelerate's logger (a standard LoggerAdapter: diffusers' training
# examples log every step through it) draws nothing: it was a may-draw of
# `get_logger(...)`'s undescribed value. (`accelerator.log` runs the
# trackers' code, any tracker the script gives: still a may-draw,
# undescribed_library_methods.py.)
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
import random

import torch
import torch.nn as nn
from accelerate import Accelerator
from accelerate.logging import get_logger

logger = get_logger(__name__, log_level="INFO")


class Flips(torch.utils.data.Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        x = torch.full((3,), float(i))
        # CHECK-DAG: .py:[[@LINE+1]]:22: warning: generator 'random' (global) is used inside the per-example data-parallel region
        return -x if random.random() < 0.5 else x


# CHECK-DAG: .py:[[@LINE+1]]:40: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
model = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.1), nn.Linear(3, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, 1)
loader = torch.utils.data.DataLoader(Flips(), batch_size=4, num_workers=2)
accelerator = Accelerator()
model, opt, loader = accelerator.prepare(model, opt, loader)
sched = accelerator.prepare(sched)
for x in loader:
    opt.zero_grad()
    loss = model(x).sum()
    accelerator.backward(loss)
    opt.step()
    sched.step()
    logger.info("step done")
# CHECK: 2 warning(s)

# A bound method given to code detc cannot read may be called there, now:
# lucidrains/stylegan2-pytorch runs each training step as
# `retry_call(model.train, tries=3, exceptions=NanException)` (the `retry`
# package), and its step fetches `next(self.loader)` of a generator over a
# DataLoader and draws the latents and noise. The call runs the method with
# its receiver bound, so its loop is a batch loop and its draws are found
# (before: only functions and callable objects given to such code were
# called, and this script's step was silent; stylegan2-pytorch: 2
# findings, 18 now).
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: .py:[[@LINE+6]]:26: warning: cannot resolve import 'retrying_lib'
# CHECK-DAG: bound_method_to_unread.py:[[@LINE+23]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}bound_method_to_unread.py:[[@LINE+21]]:9
# CHECK-DAG: bound_method_to_unread.py:[[@LINE+17]]:42: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}bound_method_to_unread.py:[[@LINE+20]]:9
# CHECK: 2 warning(s)
import torch
from torch.utils.data import DataLoader
from retrying_lib import retry_call


def cycle(iterable):
    while True:
        for x in iterable:
            yield x


class Trainer:
    def __init__(self):
        self.loader = cycle(DataLoader(torch.arange(16.0), batch_size=4))
        self.model = torch.nn.Sequential(torch.nn.Linear(1, 1),
                                         torch.nn.Dropout(0.1))

    def train(self):
        for i in range(2):
            x = next(self.loader)
            noise = torch.randn(x.shape)
            self.model((x + noise)[:, None]).sum().backward()


torch.manual_seed(0)
trainer = Trainer()
for step in range(3):
    retry_call(trainer.train, tries=3)

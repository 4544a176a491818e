# A generator that hands out a loader's batches forever (`while True:
# yield from loader`, as guided-diffusion's load_data writes it), kept in
# an attribute by a training-loop class and fetched from with
# `next(self.data)` in a `while` loop. The generator fetches the loader's
# batches (the dataset's per-example draws run in the workers), and the
# loop that calls next() on it is a per-batch region. Before, neither was
# seen: no finding at all. The dataset's draw is shown reached through the
# training loop's `next(self.data)` (the path through a training loop is
# the one shown).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
import random

import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        x = torch.tensor([float(i), 2.0 * i])
        # CHECK: generator_of_batches.py:[[@LINE+1]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}generator_of_batches.py:[[@LINE+23]]:27
        if random.random() < 0.5:
            x = x.flip(0)
        return x, {"y": i}


def load_data(batch_size):
    # KEYED: loader = _detc_rt.keyed_loader(
    loader = DataLoader(Images(), batch_size=batch_size, shuffle=True,
                        num_workers=1, drop_last=True)
    while True:
        yield from loader


class TrainLoop:
    def __init__(self, model, data):
        self.model = model
        self.data = data
        self.opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def run_loop(self):
        step = 0
        while step < 10:
            batch, cond = next(self.data)
            self.run_step(batch, cond)
            step += 1

    def run_step(self, batch, cond):
        # CHECK: generator_of_batches.py:[[@LINE+2]]:42: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}generator_of_batches.py:[[@LINE-6]]:9
        # KEYED: _detc_rt.keyed({{[0-9]+}}, {{[0-9]+}}, torch.rand)(1)
        loss = self.model(batch).sum() * torch.rand(1)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


data = load_data(4)
TrainLoop(torch.nn.Linear(2, 1), data).run_loop()
# CHECK: 2 warning(s)

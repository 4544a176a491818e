# A training loop that counts steps over something other than a bare
# `range` and fetches each batch with `next()` from a generator that
# re-iterates the loader (`for batch in loader: yield batch`), as
# rosinality's stylegan2-pytorch writes it: `pbar = tqdm(range(iters))`,
# `for idx in pbar: real_img = next(loader)`. Each iteration is one batch:
# its body is a per-batch region. Before, only `for i in range(...)` was
# recognized, and the draws of the step (the mixing noise from random's and
# torch's generators) were not found. An epoch loop whose `next()` is in a
# nested loop stays an epoch loop.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
import random

import torch
from torch import nn
from torch.utils import data
from tqdm import tqdm


class Images(data.Dataset):
    def __len__(self):
        return 16

    def __getitem__(self, i):
        x = torch.full((4,), float(i))
        # CHECK-DAG: steps_loop_next.py:[[@LINE+1]]:20: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}steps_loop_next.py:[[@LINE+23]]:20
        return x + torch.rand(4)


def sample_data(loader):
    while True:
        for batch in loader:
            yield batch


def mixing_noise(batch, prob):
    # CHECK-DAG: steps_loop_next.py:[[@LINE+1]]:21: warning: generator 'random' (global) is used inside the per-batch data-parallel region that starts at {{.*}}steps_loop_next.py:[[@LINE+11]]:5
    if prob > 0 and random.random() < prob:
        # KEYED: return _detc_rt.keyed({{[0-9]+}}, {{[0-9]+}}, torch.randn)(2, batch, 4).unbind(0)
        return torch.randn(2, batch, 4).unbind(0)
    return [torch.randn(batch, 4)]


def train(iters, loader, generator, g_optim):
    loader = sample_data(loader)
    pbar = range(iters)
    pbar = tqdm(pbar, initial=0)
    for idx in pbar:
        real_img = next(loader)
        noise = mixing_noise(4, 0.9)
        loss = generator(noise[0]).sum() + real_img.sum()
        g_optim.zero_grad()
        loss.backward()
        g_optim.step()


def epochs(loader, generator):
    # Not a batch loop itself: the loop inside it fetches.
    # CHECK-NOT: steps_loop_next.py:[[@LINE+2]]:{{.*}} per-batch
    # CHECK-NOT: steps_loop_next.py:[[@LINE+2]]:{{.*}} per-batch
    for epoch in ["warmup", "main"]:
        scale = torch.rand(())
        it = iter(loader)
        for _ in range(len(loader)):
            x = next(it)
            # CHECK-DAG: steps_loop_next.py:[[@LINE+1]]:44: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}steps_loop_next.py:[[@LINE-2]]:9
            generator(x).sum().mul(scale * torch.rand(())).backward()


generator = nn.Linear(4, 4)
g_optim = torch.optim.Adam(generator.parameters())
loader = data.DataLoader(Images(), batch_size=4, shuffle=True, num_workers=2,
                         drop_last=True)
train(10, loader, generator, g_optim)
epochs(loader, generator)
# CHECK: 5 warning(s)

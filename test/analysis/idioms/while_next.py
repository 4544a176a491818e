# A training loop that is a `while True` fetching each batch by hand with
# `next()` on the loader's iterator, as StyleGAN2-ADA writes it
# (`training_set_iterator = iter(DataLoader(...))`, the fetch inside a
# profiler block), and the loop that starts the iterator again at the end
# of each pass (`except StopIteration: it = iter(loader)`). Each iteration
# is one batch: its body is a per-batch data-parallel region, as a loader
# loop's is. Before, neither loop was, and the draws in them were not
# found. A loop nested in the body fetches for itself: it is checked on
# its own, not as part of the outer loop.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.randn(64, 4))
model = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def training_loop(loader_kwargs, total):
    training_set_iterator = iter(DataLoader(dataset=data, batch_size=8,
                                            num_workers=2, **loader_kwargs))
    done = 0
    while True:
        with torch.autograd.profiler.record_function("data_fetch"):
            (x,) = next(training_set_iterator)
        # CHECK: while_next.py:[[@LINE+2]]:13: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}while_next.py:[[@LINE-3]]:5
        # KEYED: z = _detc_rt.keyed({{[0-9]+}}, {{[0-9]+}}, torch.randn)
        z = torch.randn([x.shape[0], 4])
        # CHECK: while_next.py:[[@LINE+2]]:14: warning: generator 'np.random' (global) is used inside the per-batch data-parallel region
        # KEYED: c = [_detc_rt.batch_keyed({{[0-9]+}}, {{[0-9]+}}, np.random.randint)
        c = [np.random.randint(10) for _ in range(len(x))]
        loss = ((model(x) + z) ** 2).mean() * sum(c)
        opt.zero_grad()
        loss.backward()
        opt.step()
        done += len(x)
        if done >= total:
            break


def restarting_loop(loader, steps):
    it = iter(loader)
    step = 0
    while step < steps:
        try:
            (x,) = next(it)
        except StopIteration:
            it = iter(loader)
            continue
        # CHECK: while_next.py:[[@LINE+1]]:13: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
        w = torch.rand(1)
        loss = (model(x) * w).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1


def epochs_loop(loader):
    epoch = 0
    # Not a batch loop itself: the `for` inside it fetches.
    # CHECK-NOT: while_next.py:[[@LINE+2]]:{{.*}} per-batch
    # CHECK-NOT: while_next.py:[[@LINE+2]]:{{.*}} per-batch
    while epoch < 2:
        epoch += 1 + int(torch.randint(0, 1, ()))
        it = iter(loader)
        for _ in range(len(loader)):
            (x,) = next(it)
            # CHECK: while_next.py:[[@LINE+1]]:20: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}while_next.py:[[@LINE-2]]:9
            loss = torch.rand(1) * model(x).sum()
            loss.backward()


training_loop({}, 64)
restarting_loop(DataLoader(data, batch_size=8, num_workers=2), 10)
epochs_loop(DataLoader(data, batch_size=8, num_workers=2))
# CHECK: 4 warning(s)

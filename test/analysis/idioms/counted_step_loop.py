# Idiom: a training loop over a count (NeRF's `for i in trange(start,
# n_iters)`, full-batch epochs) or a `while` whose own body takes the step
# (`backward` and `step`), its batch picked at random from arrays in
# memory: no loader, no slice by the loop variable. Each iteration is one
# step's batch: its body is a per-batch region (marked `counted`), so the
# picks, the rendering's noise and the model's dropout are reported. The
# transform leaves those draws on their generators (sequential in the main
# process; every checkpoint and just-in-time boundary saves the states:
# inCountedRegion). An epoch loop around a function that loops, and a
# gradient-accumulation loop that steps after it, are no such loops.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc analyze %s 2>&1 | FileCheck %s --check-prefix=OTHER
# RUN: detc %s | FileCheck %s --check-prefix=IR
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.jit.py
# RUN: FileCheck %s --check-prefix=JIT < %t.jit.py
import numpy as np
import torch
import torch.nn as nn
from tqdm import trange

np.random.seed(0)
torch.manual_seed(0)
images = torch.rand(4, 16, 3)
targets = torch.rand(4, 16, 3)
model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(),
                      # CHECK-DAG: counted_step_loop.py:[[@LINE+1]]:23: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}counted_step_loop.py:[[#LOOP:]]:1 [detc-unsafe-rng]
                      nn.Dropout(0.1), nn.Linear(8, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)


def render(rays, perturb):
    # CHECK-DAG: counted_step_loop.py:[[@LINE+1]]:9: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}counted_step_loop.py:[[#LOOP]]:1 [detc-unsafe-rng]
    t = torch.rand(rays.shape[0], 1) * perturb
    return model(rays + t)


def epoch_of_steps(steps):
    for _ in range(steps):
        optimizer.zero_grad()
        loss = model(images[0]).pow(2).mean()
        loss.backward()
        optimizer.step()


# IR: detc.for
# IR: detc.parallel per_batch
# IR-SAME: counted
for i in trange(0, 20):
    # CHECK-DAG: counted_step_loop.py:[[@LINE+1]]:13: warning: generator 'np.random' (global) is used inside the per-batch data-parallel region that starts at {{.*}}counted_step_loop.py:[[#LOOP]]:1 [detc-unsafe-rng]
    img_i = np.random.choice(len(images))
    # CHECK-DAG: counted_step_loop.py:[[@LINE+1]]:14: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}counted_step_loop.py:[[#LOOP]]:1 [detc-unsafe-rng]
    select = torch.randperm(16)[:8]
    rays, target = images[img_i][select], targets[img_i][select]
    loss = (render(rays, 1.0) - target).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

# A `while` whose own body takes the step (awd-lstm-lm's `while i <
# len(data)`, its sequence length drawn from np.random each step): the
# same region.
position = 0
# IR: detc.while
# IR: detc.parallel per_batch
# IR-SAME: counted
while position < 12:
    # CHECK-DAG: counted_step_loop.py:[[@LINE+1]]:26: warning: generator 'np.random' (global) is used inside the per-batch data-parallel region that starts at {{.*}}counted_step_loop.py:[[#@LINE-1]]:1 [detc-unsafe-rng]
    seq_len = max(1, int(np.random.normal(3, 1)))
    optimizer.zero_grad()
    model(images[0, position:position + seq_len]).mean().backward()
    optimizer.step()
    position += seq_len
# KEYED-NOT: keyed
# KEYED: for i in trange(0, 20):
# KEYED: img_i = np.random.choice(len(images))
# KEYED: select = torch.randperm(16)[:8]

# Epochs of a function's loop, and gradient accumulation stepping after
# its loop: no region at either loop (the function's own loop is one).
# OTHER-NOT: region that starts at {{.*}}counted_step_loop.py:[[#@LINE+1]]:1
for epoch in range(2):
    epoch_of_steps(3)
optimizer.zero_grad()
# OTHER-NOT: region that starts at {{.*}}counted_step_loop.py:[[#@LINE+1]]:1
for micro in range(4):
    (model(images[micro]).mean() / 4).backward()
optimizer.step()
# JIT: for i in _detc_rt.hints.loop({{[0-9]+}}, 0, trange(0, 20)):
# JIT: _detc_rt.jit.boundary({{[0-9]+}}, {"model": lambda: model, "optimizer": lambda: optimizer, "gen:numpy": lambda: _detc_rt.generator_state("numpy"), "gen:torch": lambda: _detc_rt.generator_state("torch")}, name=

# A loop over a count inside a loader's loop, taking its own steps (WGAN's
# `for _ in range(n_critic)` critic steps per batch): no counted region of
# its own (counted_step_loop.py): its draws are the loader batch's, keyed
# as before, and the loop a just-in-time checkpoint's boundary goes into
# is the loader's.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc %s | FileCheck %s --check-prefix=IR
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.jit.py
# RUN: FileCheck %s --check-prefix=JIT < %t.jit.py
# IR: detc.parallel per_batch
# IR-NOT: attributes {counted}
import torch
import torch.nn as nn

torch.manual_seed(0)
images = torch.rand(8, 3)
model = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(images),
                                     batch_size=2)
# JIT: for (batch,) in
# JIT-NEXT: _detc_rt.jit.boundary(
for (batch,) in loader:
    for critic in range(2):
        # CHECK: counted_step_nested.py:[[@LINE+2]]:17: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}counted_step_nested.py:[[#@LINE-2]]:1 [detc-unsafe-rng]
        # KEYED: alpha = _detc_rt.{{(batch_)?}}keyed({{[0-9]+}}, {{[0-9]+}}, torch.rand)(1)
        alpha = torch.rand(1)
        optimizer.zero_grad()
        (model(batch) * alpha).mean().backward()
        optimizer.step()

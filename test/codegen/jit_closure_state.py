"""State a training loop changes through a closure: `update` is a function
`Meter.updater` made, which adds to the `self` it captured (opacus's
examples keep such hooks). The JIT checkpoint would have to save that
`self` (the `meter` object), which is no variable of a function on the way
to the hint; detc refuses, and names the variable as the user wrote it (it
said `'^self'`, its internal name for a closure's variable)."""
# RUN: not detc transform %s --emit-python --jit-checkpoint --python none 2>&1 | FileCheck %s
# CHECK: jit_closure_state.py:[[@LINE+22]]:9: error: cannot checkpoint at the chosen hint: 'self' (a variable a nested function reads from the function enclosing it) is live there and changed by the loops, but is not a variable of a function on the way to the hint [detc-hint]
import torch


class Meter:
    def __init__(self):
        self.total = 0.0

    def updater(self):
        def update(v):
            self.total += v

        return update


model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.randn(16, 3), batch_size=4)
meter = Meter()
update = meter.updater()
for epoch in range(2):
    for x in loader:
        opt.zero_grad()
        loss = model(x).sum()
        loss.backward()
        opt.step()
        update(loss.item())

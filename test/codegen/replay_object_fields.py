"""A module-level object of the script's classes whose attribute is state
the checkpoint does not hold (CycleGAN's replay buffer of past samples,
`fake_buffer.data`, filled inside the loop): the object is saved whole,
field by field, and its attribute path with it. The session-57 binary
refused the sidecar: "'fake_buffer.data' must be saved but is not visible
where the checkpoint is written"."""
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# DIAG-NOT: not visible
# DIAG-NOT: sidecar
# CHECK: {{^    }}_detc_rt.checkpoint(1, torch.save, {{.*}}"buffer": lambda: buffer}, loops=("epoch",))(model.state_dict(), "ck.pt")
# CHECK-NOT: "buffer.data"
# CHECK: if _detc_rt.has_value("buffer"): buffer = _detc_rt.saved_value("buffer", lambda: buffer)
import random

import torch
from torch.utils.data import DataLoader, TensorDataset


class History:
    def __init__(self):
        self.data = []

    def push(self, x):
        if len(self.data) < 4:
            self.data.append(x)
            return x
        i = random.randint(0, 3)
        old, self.data[i] = self.data[i], x
        return old


model = torch.nn.Linear(2, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
buffer = History()
loader = DataLoader(TensorDataset(torch.randn(8, 2)), batch_size=2,
                    shuffle=True)
for epoch in range(2):
    for (x,) in loader:
        loss = model(buffer.push(x)).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save(model.state_dict(), "ck.pt")

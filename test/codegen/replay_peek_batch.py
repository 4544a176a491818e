# A look at a loader's first batch before training, in code fast-forward
# runs in full (the CIFAR-10 and Fashion-MNIST tutorials show their data
# so): the loader's `iter` goes through real_batches, which makes its next
# iteration load real batches in fast-forward too. Before (the session-76
# first binary), the look got a placeholder and the resume crashed:
# "cannot unpack non-iterable Skipped object". A look inside a loop, and
# an iterator over something else, are left as written.
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.randn(40, 4), torch.randint(0, 2, (40,)))
loader = DataLoader(data, batch_size=4, shuffle=True, num_workers=2)

# CHECK: {{^}}dataiter = iter(_detc_rt.real_batches(loader))
dataiter = iter(loader)
# CHECK: {{^}}images, labels = next(dataiter)
images, labels = next(dataiter)
# CHECK: {{^}}x0, y0 = next(iter(_detc_rt.real_batches(loader)))
x0, y0 = next(iter(loader))
# CHECK: {{^}}others = iter([1, 2, 3])
others = iter([1, 2, 3])
first = next(others)

model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    # CHECK-NOT: real_{{b}}atches
    # CHECK: {{^    }}if _detc_rt.guard(): peek = iter(loader)
    peek = iter(loader)
    xp, yp = next(peek)
    for x, y in loader:
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()},
               "ckpt.pt")

"""The training loop takes its batches with next() from a generator that
repeats a loader (rosinality's stylegan2-pytorch: `loader =
sample_data(loader)`, `real_img = next(loader)` in `for idx in pbar`).
Its only state is where the loader's iteration stands: the JIT boundary
saves it (the runtime's values.GeneratorAt) and a restart makes it again
there. The session-57 binary refused: "'loader' (a generator of
'sample_data') ... cannot be saved: the loops advance it". A generator
holding state of its own (a count) is still refused (Inputs)."""
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: not detc transform %S/Inputs/jit_counting_generator.py --emit-python --jit-checkpoint -o %t.bad.py 2>&1 | FileCheck %s --check-prefix=BAD
# DIAG-NOT: error
# CHECK: {{^}}def train(loader, model, opt, iters):
# CHECK: _detc_rt.jit.boundary({{.*}}"loader": lambda: loader
# CHECK: if _detc_rt.hints.has_value("loader"): loader = _detc_rt.hints.value("loader", lambda: loader
# BAD: error: 'loader' (a generator of 'counting', line {{[0-9]+}}) is live at the chosen hint (line {{[0-9]+}}) and cannot be saved: the loops advance it (next())
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def sample_data(loader):
    """Batches forever."""
    while True:
        for batch in loader:
            yield batch


def train(loader, model, opt, iters):
    loader = sample_data(loader)
    for idx in range(iters):
        x, y = next(loader)
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


data = TensorDataset(torch.randn(16, 4), torch.randint(0, 2, (16,)))
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.1),
                            torch.nn.Linear(8, 2))
train(DataLoader(data, batch_size=4, shuffle=True), model,
      torch.optim.SGD(model.parameters(), lr=0.1), 10)

# Batches taken with next() in the training loop's body from a loader
# with no workers (rosinality's stylegan2: `real_img = next(loader)` over
# `sample_data(loader)`, its DataLoader without num_workers). The
# examples are still made one by one — in the keyed loader's example
# scopes — not by the minibatch: their draws are per-example, as for a
# loop over the loader. They were taken for the minibatch's, and a
# torchvision transform among them was "left nondeterministic" (the
# session-57 binary; --strict refused the script).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# CHECK: fetch_without_workers.py:[[@LINE+17]]:31: warning: generator 'torch' (global) is used inside the per-example data-parallel region
# CHECK: fetch_without_workers.py:[[@LINE+25]]:28: warning: generator 'torch' (global) is used inside the per-example data-parallel region
# DIAG-NOT: left nondeterministic
# DIAG-NOT: detc-unrewritable
import torch
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms


class Noise(Dataset):
    def __init__(self, transform):
        self.transform = transform

    def __len__(self):
        return 16

    def __getitem__(self, i):
        return self.transform(torch.randn(3, 8, 8))


def sample_data(loader):
    while True:
        for batch in loader:
            yield batch


flip = transforms.Compose([transforms.RandomHorizontalFlip()])
loader = sample_data(DataLoader(Noise(flip), batch_size=4, shuffle=True))
model = torch.nn.Conv2d(3, 1, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for idx in range(10):
    x = next(loader)
    loss = model(x).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

# A DataLoader made by an installed library's factory (timm's
# create_loader shape; the library is test/e2e/Inputs/library_loader's):
# reading its source, detc finds that it constructs torch's DataLoader, so
# the loop over its result is a loop over batches with a per-example
# region whose code is the library's (its transform draws), and the
# transform keys the DataLoader where the library constructs it. Without
# library source (sound by default), the factory given the program's
# dataset may make a loader of it: the loop over its result is a loop
# over batches, and the factory's unread code inside the examples' region
# is a may-draw finding (there was no loader, no region, and nothing
# reported).
# RUN: env PYTHONPATH=%S/../../e2e/Inputs/library_loader/site-packages \
# RUN:   detc analyze --python %python %s 2>&1 | FileCheck %s
# RUN: env PYTHONPATH=%S/../../e2e/Inputs/library_loader/site-packages \
# RUN:   detc transform --emit-python --python %python %s 2>&1 \
# RUN:   | FileCheck %s --check-prefix=KEYED
# RUN: env PYTHONPATH=%S/../../e2e/Inputs/library_loader/site-packages \
# RUN:   detc analyze --python none %s 2>&1 | FileCheck %s --check-prefix=NONE
# NONE: library_loader.py:[[@LINE+28]]:10: warning: may draw: 'create_loader' calls code detc could not read, inside the per-example data-parallel region that starts at {{.*}}library_loader.py:[[@LINE+29]]:1
# NONE: 1 warning(s)
# KEYED: {{^}}_detc_rt.key_imported_loaders(
import torch
from torch.utils.data import Dataset

from shapedlib import create_loader


class Rows(Dataset):
    def __init__(self):
        self.images = torch.zeros(16, 4)
        self.transform = None

    def __len__(self):
        return 16

    def __getitem__(self, index):
        image = self.images[index]
        if self.transform is not None:
            image = self.transform(image)
        return image, 0


model = torch.nn.Linear(4, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
# CHECK: library_loader.py:[[@LINE+2]]:10: warning: draws: 'create_loader' runs library code that draws from a generator made outside the per-example data-parallel region that starts at {{.*}}library_loader.py:[[@LINE+3]]:1 [detc-unsafe-rng]
# CHECK: note: 'create_loader' is library code that draws: 'random.random' at {{.*}}loader.py:15 (through shapedlib.loader.create_loader -> shapedlib.loader.create_transform -> shapedlib.loader.RandomErase)
loader = create_loader(Rows(), batch_size=4, num_workers=2)
for x, y in loader:
    optimizer.zero_grad()
    model(x).sum().backward()
    optimizer.step()
# CHECK: 1 warning(s)

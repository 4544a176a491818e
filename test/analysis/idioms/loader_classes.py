# Loaders as yolov5 writes them: a subclass of DataLoader the script
# defines (reached through `torch.utils.data.dataloader.DataLoader`), a
# loader class picked into a variable (`loader = DataLoader if weights
# else InfiniteDataLoader`), built in a function that returns the loader
# and its dataset, and a loop over `pbar = enumerate(loader)` that a
# progress bar may wrap again (`pbar = TQDM(pbar)`, from a package that is
# not installed: code detc cannot read may iterate what it is given, so
# the loop may be over the loader's batches). Each is a loop over
# the loader's batches: before, none was, and the dataset's draws were not
# found. The transform keys the loader whichever class the call picks:
# the runtime builds a keyed subclass of it (one that repeats its batch
# sampler counts each pass as an epoch; test/e2e, repeating loaders).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=WARN
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
import random

import torch
from progress_bars_not_installed import TQDM
from torch.utils.data import DataLoader, Dataset, dataloader


class InfiniteDataLoader(dataloader.DataLoader):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.iterator = super().__iter__()

    def __iter__(self):
        for _ in range(len(self)):
            yield next(self.iterator)


class Flips(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        x = torch.zeros(8)
        # CHECK-DAG: loader_classes.py:[[@LINE+1]]:12: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}loader_classes.py:[[ENUMERATED:[0-9]+]]:9
        if random.random() < 0.5:
            x = x.flip(0)
        return x


class Noise(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        # CHECK-DAG: loader_classes.py:[[@LINE+1]]:16: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}loader_classes.py:[[PICKED:[0-9]+]]:5
        return random.gauss(0, 1)


def create_dataloader(weights, workers):
    dataset = Flips()
    # WARN-NOT: cannot key the loader
    # KEYED: return _detc_rt.keyed_loader({{.*}}loader_class=loader)(dataset
    loader = DataLoader if weights else InfiniteDataLoader
    return loader(dataset, batch_size=8, num_workers=workers,
                  shuffle=True), dataset


def train(workers):
    model = torch.nn.Linear(8, 2)
    train_loader, dataset = create_dataloader(False, workers)
    for epoch in range(2):
        pbar = enumerate(train_loader)
        pbar = TQDM(pbar, total=len(train_loader))
        # CHECK-DAG: loader_classes.py:[[ENUMERATED]]:9: note: the per-example data-parallel region begins here
        for i, x in pbar:
            model(x).sum().backward()
    # A loader class in a variable: torch's DataLoader, keyed.
    make = DataLoader
    # KEYED: keyed_loader({{.*}}loader_class=make)(Noise()
    noise = make(Noise(), batch_size=8, num_workers=workers)
    # CHECK-DAG: loader_classes.py:[[PICKED]]:5: note: the per-example data-parallel region begins here
    for x in noise:
        print(x)


train(2)
# CHECK: 2 warning(s)

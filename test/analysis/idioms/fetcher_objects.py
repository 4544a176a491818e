# Loaders kept where the lowering's facts did not follow them, and a batch
# fetched through a class's `__next__`, as clovaai/stargan-v2 and
# PyTorch's transfer-learning tutorial write them:
# - loaders in a namespace object (`SimpleNamespace(src=...)`, Munch)
#   and in a dict a comprehension builds (`dataloaders[phase]`);
# - `inputs = next(fetcher)` of an InputFetcher whose `__next__` fetches
#   from a kept iterator and draws the step's latent codes;
# - a `transforms.Lambda` whose function draws (`crop(x) if
#   random.random() < p else x`): Lambda calls it per example;
# - a dataset class whose `self.transform` is a Compose for one loader and
#   the program's function for another: both run (the Compose was
#   dropped when a function was among the candidates).
# Before, none of these draws was found (the script reported nothing).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# RUN: detc transform %s --emit-python -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
import random
from types import SimpleNamespace

import torch
from torch.utils import data
from torchvision import transforms


class Images(data.Dataset):
    def __init__(self, transform):
        self.transform = transform

    def __len__(self):
        return 16

    def __getitem__(self, i):
        return self.transform(torch.full((3, 4, 4), float(i))), i % 2


def get_train_loader(prob=0.5):
    # CHECK-DAG: fetcher_objects.py:[[@LINE+1]]:12: warning: generator 'torch' (global) is used inside the per-example data-parallel region
    crop = transforms.RandomResizedCrop(4, scale=[0.8, 1.0])
    # CHECK-DAG: fetcher_objects.py:[[@LINE+1]]:56: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}fetcher_objects.py:[[@LINE+15]]:20
    rand_crop = transforms.Lambda(lambda x: crop(x) if random.random() < prob else x)
    # CHECK-DAG: fetcher_objects.py:[[@LINE+1]]:48: warning: generator 'torch' (global) is used inside the per-example data-parallel region
    transform = transforms.Compose([rand_crop, transforms.RandomHorizontalFlip()])
    return data.DataLoader(Images(transform), batch_size=4, shuffle=True,
                           num_workers=2)


class InputFetcher:
    def __init__(self, loader, latent_dim=16):
        self.loader = loader
        self.latent_dim = latent_dim

    def _fetch_inputs(self):
        try:
            x, y = next(self.iter)
        except (AttributeError, StopIteration):
            self.iter = iter(self.loader)
            x, y = next(self.iter)
        return x, y

    def __next__(self):
        x, y = self._fetch_inputs()
        # CHECK-DAG: fetcher_objects.py:[[@LINE+2]]:17: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}fetcher_objects.py:[[@LINE+8]]:5
        # KEYED: z_trg = _detc_rt.keyed({{[0-9]+}}, {{[0-9]+}}, torch.randn)
        z_trg = torch.randn(x.size(0), self.latent_dim)
        return SimpleNamespace(x_src=x, y_src=y, z_trg=z_trg)


def train(loaders, model, opt):
    fetcher = InputFetcher(loaders.src)
    for i in range(0, 100):
        inputs = next(fetcher)
        loss = model(inputs.x_src.flatten(1)).sum() + inputs.z_trg.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()


class Pairs(data.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        # CHECK-DAG: fetcher_objects.py:[[@LINE+1]]:16: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}fetcher_objects.py:[[@LINE+8]]:9
        return torch.rand(48), i


def evaluate(model):
    dataloaders = {x: data.DataLoader(Pairs(), batch_size=4, num_workers=2)
                   for x in ["val", "test"]}
    for phase in ["val", "test"]:
        for x, y in dataloaders[phase]:
            model(x)


def noisy(x):
    # CHECK-DAG: fetcher_objects.py:[[@LINE+1]]:16: warning: generator 'torch' (global) is used inside the per-example data-parallel region
    return x + torch.randn_like(x)


model = torch.nn.Linear(48, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loaders = SimpleNamespace(src=get_train_loader(), val=get_train_loader())
train(loaders, model, opt)
evaluate(model)
for x, y in data.DataLoader(Images(noisy), batch_size=4, num_workers=2):
    model(x.flatten(1))
# CHECK: 6 warning(s)

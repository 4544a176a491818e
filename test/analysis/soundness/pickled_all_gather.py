# The all_gather of pickled objects that maskrcnn-benchmark's comm.py
# spread to many repositories (vq-vae-2 gathers its metrics with it every
# step): `torch.ByteStorage.from_buffer(pickle.dumps(data))` was a name of
# torch no table describes, a may-draw in the training loop. It copies the
# bytes into a storage (torch/storage.py): no draw, for the old storage
# class and torch 2's UntypedStorage alike.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: 0 warning(s)
import pickle

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def all_gather(data, legacy):
    buffer = pickle.dumps(data)
    if legacy:
        storage = torch.ByteStorage.from_buffer(buffer)
    else:
        storage = torch.UntypedStorage.from_buffer(buffer, dtype=torch.uint8)
    tensor = torch.ByteTensor(storage)
    sizes = [torch.IntTensor([0]) for _ in range(dist.get_world_size())]
    dist.all_gather(sizes, torch.IntTensor([tensor.numel()]))
    return [pickle.loads(tensor.numpy().tobytes()) for _ in sizes]


model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=4)
for i, (x,) in enumerate(loader):
    loss = model(x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    stats = all_gather({"loss": loss.item()}, legacy=i % 2 == 0)

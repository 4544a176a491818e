# A training loop over a library pipeline no table models as a loader
# (webdataset's WebLoader over a DataPipeline of stages, one of them the
# program's `wds.map(augment)`; open_clip's and large-scale training's
# data path): a loader whose examples run the program's callables the
# pipeline was made from, a few levels down (also through `*stages`), and
# the library's own code (a may-draw where detc cannot read it; with
# webdataset installed, its `shuffle` stage draws from a generator of its
# own). Both were silent: the loop had no region and `augment`'s draw ran
# where `wds.map` was called.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: warning: cannot resolve import 'webdataset'
# CHECK: library_pipelines.py:[[@LINE+13]]:8: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}library_pipelines.py:[[@LINE+36]]:1
# CHECK: library_pipelines.py:[[@LINE+35]]:13: warning: may draw: 'loader' calls code detc could not read, inside the per-example data-parallel region
# CHECK: note: 'loader' is the examples of a pipeline of module 'webdataset', which detc could not find and no API table models
# CHECK: 2 warning(s)
import random

import torch
import webdataset as wds
from torch import nn


def augment(sample):
    x = sample["x"]
    if random.random() < 0.5:
        x = -x
    return {"x": x, "y": sample["y"]}


def make_loader(urls):
    pipeline = [
        wds.SimpleShardList(urls),
        wds.split_by_worker,
        wds.tarfile_to_samples(),
        wds.shuffle(100),
        wds.decode(),
        wds.map(augment),
        wds.to_tuple("x", "y"),
        wds.batched(8),
    ]
    dataset = wds.DataPipeline(*pipeline)
    return wds.WebLoader(dataset, batch_size=None, shuffle=False, num_workers=4)


model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = make_loader("data-{000..009}.tar")
for x, y in loader:
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

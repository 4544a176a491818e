# Training loops over batches the program cuts itself, with no loader
# (hlb-CIFAR10's `get_batches` and airbench's CifarLoader keep the dataset
# on the GPU and slice a random permutation): no region was found, and
# the model's dropout was silent ("0 warning(s)"). Now a generator whose
# own loop cuts the batches it yields, any generator of the program a
# training loop (its own body calls `backward`) goes over, and an
# instance whose `__iter__` is such a generator each make the loop a loop
# over batches. The evaluation loop over the same generator does not
# train: it stays a plain loop.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s
# CHECK: program_generator_batches.py:[[@LINE+36]]:40: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}program_generator_batches.py:[[@LINE+46]]:5
# CHECK: program_generator_batches.py:[[@LINE+36]]:40: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}program_generator_batches.py:[[@LINE+49]]:5
# CHECK: program_generator_batches.py:[[@LINE+36]]:40: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}program_generator_batches.py:[[@LINE+52]]:5
# CHECK-NOT: warning: generator
# CHECK: 3 warning(s)
import torch
import torch.nn as nn


def get_batches(images, targets, bs):
    shuffled = torch.randperm(images.shape[0])
    for idx in range(images.shape[0] // bs):
        sel = shuffled[idx * bs:(idx + 1) * bs]
        yield images.index_select(0, sel), targets.index_select(0, sel)


def shards(data, n):
    # Pieces cut by torch.chunk: nothing here slices by a loop variable.
    for piece in torch.chunk(data[torch.randperm(len(data))], n):
        yield piece[:, :8], piece[:, 8].long()


class GpuLoader:
    def __init__(self, images, labels, batch_size):
        self.images, self.labels, self.bs = images, labels, batch_size

    def __len__(self):
        return len(self.images) // self.bs

    def __iter__(self):
        indices = torch.randperm(len(self.images))
        for i in range(len(self)):
            idxs = indices[i * self.bs:(i + 1) * self.bs]
            yield self.images[idxs], self.labels[idxs]


net_a = nn.Sequential(nn.Linear(8, 2), nn.Dropout(0.2))
net_b = nn.Sequential(nn.Linear(8, 2), nn.Dropout(0.2))
net_c = nn.Sequential(nn.Linear(8, 2), nn.Dropout(0.2))
net_d = nn.Sequential(nn.Linear(8, 2), nn.Dropout(0.2))
params = [p for n in (net_a, net_b, net_c) for p in n.parameters()]
opt = torch.optim.SGD(params, lr=0.1)
images, targets = torch.randn(64, 8), torch.randint(0, 2, (64,))
data = torch.cat([images, targets[:, None].float()], 1)

for epoch in range(3):
    for step, (x, y) in enumerate(get_batches(images, targets, 16)):
        nn.functional.cross_entropy(net_a(x), y).backward()
        opt.step()
        opt.zero_grad()
    for x, y in shards(data, 4):
        nn.functional.cross_entropy(net_b(x), y).backward()
        opt.step()
        opt.zero_grad()
    for x, y in GpuLoader(images, targets, 16):
        nn.functional.cross_entropy(net_c(x), y).backward()
        opt.step()
        opt.zero_grad()
    with torch.no_grad():
        for x, y in shards(data, 2):
            net_d(x)

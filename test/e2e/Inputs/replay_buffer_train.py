"""A GAN trained at module level with a history buffer of generated
samples (the shape of CycleGAN's ReplayBuffer in public GAN code): the
buffer is a module-level object whose list of past samples, filled and
sampled with the global `random` generator inside the per-batch loop, is
state the script's own checkpoint (two state dicts) does not hold. A
resume must restore `fake_buffer.data` from detc's sidecar; never seeded
(detc seeds it)."""
import argparse
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--epochs", type=int, default=4)
parser.add_argument("--workers", type=int, default=0)
args = parser.parse_args()


class ReplayBuffer:
    def __init__(self, max_size=6):
        self.max_size = max_size
        self.data = []

    def push_and_pop(self, batch):
        out = []
        for element in batch.detach():
            element = element.unsqueeze(0)
            if len(self.data) < self.max_size:
                self.data.append(element)
                out.append(element)
            elif random.uniform(0, 1) > 0.5:
                i = random.randint(0, self.max_size - 1)
                out.append(self.data[i].clone())
                self.data[i] = element
            else:
                out.append(element)
        return torch.cat(out)


G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 8))
D = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Dropout(0.3),
                  nn.Linear(16, 1))
opt_G = torch.optim.Adam(G.parameters(), lr=0.01)
opt_D = torch.optim.Adam(D.parameters(), lr=0.01)
loss_fn = nn.BCEWithLogitsLoss()
real = TensorDataset(torch.randn(48, 8) * 0.5 + 1.0)
loader = DataLoader(real, batch_size=8, shuffle=True,
                    num_workers=args.workers)
fake_buffer = ReplayBuffer()

for epoch in range(args.epochs):
    for i, (x,) in enumerate(loader):
        z = torch.randn(x.shape[0], 4)
        opt_G.zero_grad()
        fake = G(z)
        g_loss = loss_fn(D(fake), torch.ones(x.shape[0], 1))
        g_loss.backward()
        opt_G.step()
        opt_D.zero_grad()
        past = fake_buffer.push_and_pop(fake)
        d_loss = (loss_fn(D(x), torch.ones(x.shape[0], 1)) +
                  loss_fn(D(past), torch.zeros(past.shape[0], 1))) / 2
        d_loss.backward()
        opt_D.step()
    torch.save({"G": G.state_dict(), "D": D.state_dict()}, args.out)
    print("epoch %d done" % epoch)

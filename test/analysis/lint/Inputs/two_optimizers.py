import torch
from torch import nn

gen = nn.Linear(4, 4)
disc = nn.Linear(4, 1)
opt_g = torch.optim.Adam(gen.parameters())
opt_d = torch.optim.Adam(disc.parameters())
data = [torch.ones(3, 4)] * 4
for epoch in range(2):
    for real in data:
        disc.zero_grad()
        loss_d = disc(real).mean() - disc(gen(real).detach()).mean()
        loss_d.backward()
        opt_d.step()
        gen.zero_grad()
        loss_g = -disc(gen(real)).mean()
        loss_g.backward()
        opt_g.step()

"""`--jit-checkpoint` (docs/jit.md): the boundary copies a generator's state
only when a draw in the loops may change it. `noise` is drawn in the
minibatch by a keyed draw (from a stream of its own: `noise` stays as it
was), torch's global generator by keyed dropout, in the dataset's example
scopes (which put it back) and by the keyed loader (which shuffles with a
generator of its own): both are read at a failure, not at each boundary.
`jitter` is drawn once per epoch by a plain call detc leaves as it is (the
main thread draws it; nothing to key): the boundary copies its state, the
one a restart must give back."""
# RUN: detc transform %s --emit-python --jit-checkpoint | FileCheck %s
# CHECK: _detc_rt.jit.boundary({{[0-9]+}}, {"loader": lambda: loader, "model": lambda: model, "optimizer": lambda: optimizer, "scale": lambda: scale, "gen:torch": lambda: _detc_rt.generator_state("torch"), "gen:noise": lambda: _detc_rt.generator_state(noise), "gen:jitter": lambda: _detc_rt.generator_state(jitter)}, live=("gen:torch", "gen:noise", ), name="_checkpoint")("detc-jit")
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Points(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.randn(4), i % 2


def main():
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.1), nn.Linear(8, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(Points(), batch_size=8, shuffle=True, num_workers=2)
    noise = torch.Generator().manual_seed(1)
    jitter = torch.Generator().manual_seed(2)
    for epoch in range(3):
        scale = torch.rand(1, generator=jitter).item()
        for x, y in loader:
            x = x + scale * torch.empty_like(x).normal_(generator=noise)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


main()

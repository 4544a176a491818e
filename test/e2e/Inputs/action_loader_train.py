"""A training loop over a shuffling DataLoader with two workers whose
check stops the run at its third batch, wanting stronger dropout and input
noise (test/e2e/recovery_shapes.py). A policy's action builds the layer
and draws the noise; both must be keyed as the same line written into the
script would be: the new layer per example, the noise from the batch's
example streams. --fixed has that line from the start, placed after the
check so that the action's text comes first in main()."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.drop(self.fc(x))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--fixed", action="store_true")
    p.add_argument("--out", default="action.pt")
    args = p.parse_args()
    torch.manual_seed(0)
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.randn(32, 4),
                                          torch.randint(0, 3, (32,)))
    loader = torch.utils.data.DataLoader(data, batch_size=4, shuffle=True,
                                         num_workers=2)
    for step, (x, y) in enumerate(loader):
        if step == 2 and model.drop.p < 0.3 and not args.fixed:
            raise RuntimeError("loss plateau: more regularisation")
        if args.fixed and step == 2:
            model.drop = nn.Dropout(0.3)
            x = x + 0.01 * torch.randn_like(x)
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    torch.save(model.state_dict(), args.out)


if __name__ == "__main__":
    main()

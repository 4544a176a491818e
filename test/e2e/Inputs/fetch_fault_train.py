"""A training loop over a DataLoader whose fetches fail (test/e2e/
fetch_recovery.py): --fault flaky makes one example's first read in epoch 1
raise ConnectionError (a remote file system's reset), --fault corrupt makes
it raise ValueError at every read (a corrupt record). --fixed trains on what
the recovered run trains on: the batch holding that example is fetched and
left out (in epoch 1, or in every epoch)."""
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

BAD = 21


class Records(Dataset):
    def __init__(self, fault, marker):
        g = torch.Generator().manual_seed(3)
        self.x = torch.randn(64, 6, generator=g)
        self.y = torch.randint(0, 3, (64,), generator=g)
        self.fault, self.marker = fault, marker

    def __len__(self):
        return 64

    def __getitem__(self, i):
        if i == BAD and self.fault == "corrupt":
            raise ValueError("corrupt record %d" % i)
        if i == BAD and self.fault == "flaky" and os.path.exists(self.marker):
            os.remove(self.marker)
            raise ConnectionError("Connection reset by peer")
        # A random augmentation per example (detc keys it).
        return self.x[i] + 0.01 * torch.randn(6), self.y[i], i


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--fault", default="none")
    p.add_argument("--fixed", action="store_true")
    p.add_argument("--workers", type=int, default=0)
    p.add_argument("--out", default="fetch.pt")
    args = p.parse_args()
    torch.manual_seed(0)
    marker = args.out + ".flaky"
    data = Records("none" if args.fixed else args.fault, marker)
    loader = DataLoader(data, batch_size=8, shuffle=True,
                        num_workers=args.workers)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                          nn.Linear(16, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    trained = []
    for epoch in range(3):
        if epoch == 1 and args.fault == "flaky" and not args.fixed:
            open(marker, "w").close()
        steps = 0
        for x, y, idx in loader:
            if args.fixed and BAD in idx.tolist() and (
                    args.fault == "corrupt" or epoch == 1):
                continue
            opt.zero_grad()
            F.cross_entropy(model(x), y).backward()
            opt.step()
            steps += 1
        trained.append(steps)
    torch.save({"model": model.state_dict(), "trained": trained}, args.out)
    print("trained", trained)


if __name__ == "__main__":
    main()

"""VICReg's loop: the inner loop numbers its steps from the epoch,
`enumerate(loader, start=epoch * len(loader))`; a restart re-enters the
epoch loop first, so `epoch` is bound before the iterable is evaluated."""
import sys

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def main(out):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    data = TensorDataset(torch.randn(40, 8), torch.randint(3, (40,)))
    loader = DataLoader(data, batch_size=4, shuffle=True, num_workers=2)
    for epoch in range(0, 3):
        for step, (x, y) in enumerate(loader, start=epoch * len(loader)):
            loss = F.cross_entropy(model(x), y) * (1.0 + step / 100.0)
            opt.zero_grad()
            loss.backward()
            opt.step()
            print("done", epoch, step, flush=True)
    torch.save(model.state_dict(), out)


if __name__ == "__main__":
    main(sys.argv[1])

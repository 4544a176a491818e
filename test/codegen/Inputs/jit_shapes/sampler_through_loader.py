"""SwAV's loop: the epoch of the loader's sampler is set through the
loader (`train_loader.sampler.set_epoch(epoch)`), then the loader is
iterated in a function of its own."""
import sys

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def train(loader, model, opt, epoch, state):
    for it, (x, y) in enumerate(loader):
        state["n"] += 1
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("done", epoch, it, flush=True)


def main(out):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    data = TensorDataset(torch.randn(40, 8), torch.randint(3, (40,)))
    sampler = DistributedSampler(data, num_replicas=1, rank=0, shuffle=True)
    train_loader = DataLoader(data, batch_size=4, sampler=sampler, num_workers=2)
    state = {"n": 0}
    for epoch in range(3):
        train_loader.sampler.set_epoch(epoch)
        train(train_loader, model, opt, epoch, state)
    torch.save(model.state_dict(), out)


if __name__ == "__main__":
    main(sys.argv[1])

"""hifi-gan's entry: the training function is started through
torch.multiprocessing.spawn on several GPUs and called directly on one
(`mp.spawn(train, nprocs=n, args=(a,))` or `train(0, a)`); its loops are
the same either way."""
import argparse
import sys

import torch
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def train(rank, a):
    torch.manual_seed(a.seed + rank)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))
    opt = torch.optim.AdamW(model.parameters(), lr=0.01)
    data = TensorDataset(torch.randn(40, 8), torch.randint(3, (40,)))
    loader = DataLoader(data, batch_size=4, shuffle=True, num_workers=2)
    steps = 0
    for epoch in range(3):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            steps += 1
            print("done", epoch, steps, flush=True)
    torch.save(model.state_dict(), a.out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--gpus", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    a = parser.parse_args()
    if a.gpus > 1:
        mp.spawn(train, nprocs=a.gpus, args=(a,))
    else:
        train(0, a)


if __name__ == "__main__":
    main()

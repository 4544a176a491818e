"""Two progress bars with one name in two functions: `pbar =
tqdm(range(epochs))` around the epoch loop in `main`, `pbar =
tqdm(loader)` around the batches in `train_epoch`. Bars were looked up
by name alone, so the epoch loop's restart level went around
`train_epoch`'s loader and the epoch loop had none. Dropout and a
shuffling loader with workers, so a restart that loses a generator's
state or the loader's position shows in the weights. The model fails as
DETC_TEST_FAIL=PHASE:STEP asks (failing_net.py), for the just-in-time
tests.

usage: jit_bar_names_train.py [--epochs N] --out FILE
"""
import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm

from failing_net import Net


def train_epoch(model, optimizer, loader, epoch):
    pbar = tqdm(loader, disable=True)
    for i, (x, y) in enumerate(pbar):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        pbar.set_description("loss %.3f" % loss.item())
        print("done %d:%d" % (epoch, i), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(3)
    data = TensorDataset(torch.randn(64, 6), torch.arange(64) % 3)
    loader = DataLoader(data, batch_size=8, shuffle=True, num_workers=2)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    pbar = tqdm(range(args.epochs), disable=True)
    for epoch in pbar:
        train_epoch(model, optimizer, loader, epoch)
        pbar.set_description("epoch %d" % epoch)
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, args.out)


if __name__ == "__main__":
    main()

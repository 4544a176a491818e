"""A loader parameter rebound to its own progress bar, as every
classification script of WZMIAOMIAO/deep-learning-for-image-processing
writes its epoch (`data_loader = tqdm(data_loader)` in `train_one_epoch`,
then `data_loader.desc = ...` each step). Dropout and a shuffling loader
with workers, so a restart that loses a generator's state or the loader's
position shows in the weights. The model fails as DETC_TEST_FAIL=PHASE:STEP
asks (failing_net.py), for the just-in-time tests.

usage: jit_bar_parameter_train.py [--epochs N] --out FILE
"""
import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm

from failing_net import Net


def train_one_epoch(model, optimizer, data_loader, epoch):
    data_loader = tqdm(data_loader, disable=True)
    for i, (x, y) in enumerate(data_loader):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        data_loader.desc = "train epoch[%d] loss:%.3f" % (epoch, loss.item())
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
    for epoch in range(args.epochs):
        train_one_epoch(model, optimizer, loader, epoch)
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, args.out)


if __name__ == "__main__":
    main()

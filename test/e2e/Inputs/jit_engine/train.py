"""A script whose training loop is in an imported module, shaped like
DeiT's and MAE's main.py (issue 41): the epoch loop calls
`engine.train_one_epoch` and `engine.evaluate`. A shuffled loader with
workers, dropout and momentum, so that a restart that loses the loop's
position, the loader's generator or the running sum shows in the
weights. The model (failing_net.py) fails as DETC_TEST_FAIL=PHASE:STEP
asks, for the just-in-time tests.

usage: train.py [--epochs N] --out FILE
"""
import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

import misc
from engine import evaluate, train_one_epoch
from failing_net import Net


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(5)
    data = TensorDataset(torch.randn(48, 6), torch.arange(48) % 3)
    train_loader = DataLoader(data, batch_size=8, shuffle=True, num_workers=2)
    val_loader = DataLoader(data, batch_size=16)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(args.epochs):
        stats = train_one_epoch(model, train_loader, optimizer, epoch)
        correct = evaluate(model, val_loader)
        print("epoch %d loss %.4f correct %d" % (epoch, stats["loss"], correct))
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "history": torch.tensor(misc.HISTORY)}, args.out)


if __name__ == "__main__":
    main()

"""A training loop over a loader whose sampler is the script's own and
draws each index from numpy's global generator as the loader asks for it
(interleaved with the loop; with workers, ahead of it). A restart must
make the indices the checkpointed run had taken again from what the
epoch's order started from, then go on from the restored generator
(issue 41: only the first index was, and restarts gave other batches with
exit 0). The model (failing_net.py) fails as DETC_TEST_FAIL=PHASE:STEP
asks.

usage: jit_index_sampler_train.py [--epochs N] [--workers N] --out FILE
"""
import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Sampler, TensorDataset

from failing_net import Net


class EachIndexSampler(Sampler):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        for _ in range(self.n):
            yield int(np.random.randint(self.n))

    def __len__(self):
        return self.n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(3)
    np.random.seed(3)
    data = TensorDataset(torch.randn(40, 6), torch.arange(40) % 3)
    loader = DataLoader(data, batch_size=8, sampler=EachIndexSampler(40),
                        num_workers=args.workers)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(args.epochs):
        for step, (x, y) in enumerate(loader):
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print("done %d:%d" % (epoch, step), flush=True)
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, args.out)


if __name__ == "__main__":
    main()

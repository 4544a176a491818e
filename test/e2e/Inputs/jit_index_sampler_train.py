"""A training loop over a loader whose sampler is the script's own and
draws each index from numpy's global generator as the loader asks for it
(interleaved with the loop; with workers, ahead of it). A restart must
make the indices the checkpointed run had taken again from what the
epoch's order started from, then go on from the restored generator
(issue 41: only the first index was, and restarts gave other batches with
exit 0). With --batch-sampler, the loader's batch_sampler is the script's
own instead, grouping a permutation drawn from torch's generator when its
iteration starts (a GroupedBatchSampler's shape; such loaders were not
keyed, and restarts in a later epoch gave other batches with exit 0).
The model (failing_net.py) fails as DETC_TEST_FAIL=PHASE:STEP asks.
With --ckpt-every K, the script saves its own checkpoint to --out every K
batches (the kill/resume test: fast-forward must iterate such a loader,
whose order draws, as the run did).

usage: jit_index_sampler_train.py [--epochs N] [--workers N]
                                  [--batch-sampler] [--ckpt-every K]
                                  --out FILE
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


class ShuffledBatches(Sampler):
    def __init__(self, n, size):
        self.n, self.size = n, size

    def __iter__(self):
        order = torch.randperm(self.n).tolist()
        for i in range(0, self.n, self.size):
            yield order[i:i + self.size]

    def __len__(self):
        return (self.n + self.size - 1) // self.size


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--batch-sampler", action="store_true")
    parser.add_argument("--ckpt-every", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(3)
    np.random.seed(3)
    data = TensorDataset(torch.randn(40, 6), torch.arange(40) % 3)
    if args.batch_sampler:
        loader = DataLoader(data, batch_sampler=ShuffledBatches(40, 8),
                            num_workers=args.workers)
    else:
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
            if args.ckpt_every and step % args.ckpt_every == 0:
                torch.save({"model": model.state_dict(),
                            "optimizer": optimizer.state_dict()}, args.out)
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, args.out)


if __name__ == "__main__":
    main()

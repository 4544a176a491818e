"""Training by iterations over an endless generator of batches, in the
shape of rosinality's stylegan2-pytorch (`loader = sample_data(loader)`,
then `real_img = next(loader)` in `for idx in range(args.iter)`): the
generator repeats a shuffled DataLoader with workers across epochs. A
just-in-time restart makes the generator again and starts its loader's
iteration where it stood (values.GeneratorAt); detc refused such a script
before ("'loader' (a generator of 'sample_data') ... cannot be saved").

Its model is failing_net.Net (DETC_TEST_FAIL=PHASE:STEP makes iteration
STEP fail in PHASE: `forward`, `backward`, `hang`); SIGTERM lands
anywhere.

usage: jit_sample_data_train.py [--workers N] [--iters N] --out FILE"""
import argparse
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from failing_net import Net


def sample_data(loader):
    while True:
        for batch in loader:
            yield batch


def train(args, loader, model, optimizer):
    loader = sample_data(loader)
    for idx in range(args.iters):
        x, y = next(loader)
        loss = F.cross_entropy(model(x), y)
        time.sleep(0.01)  # so that a SIGTERM lands inside the loop
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print("done 0:%d" % idx, flush=True)
        if (idx + 1) % 10 == 0:
            torch.save({"model": model.state_dict(),
                        "optimizer": optimizer.state_dict()}, args.out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--iters", type=int, default=30)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(96, 6), torch.randint(0, 3, (96,)))
    loader = DataLoader(data, batch_size=8, shuffle=True,
                        num_workers=args.workers)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    train(args, loader, model, optimizer)


if __name__ == "__main__":
    main()

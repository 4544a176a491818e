"""A training script shaped like users' (issue 41): the loop runs over
`enumerate(tqdm(loader))`, an overall `pbar = tqdm(total=...)` and a
logger, an open log file and a progress bar live across the checkpoints
(none of them can be pickled: a resume keeps the ones its setup built
again), and the model has dropout both as nn.Dropout and inside an
nn.LSTM (drawn in torch's own code). Before training it looks at a first batch
(`dataiter = iter(loader); images, labels = next(dataiter)`, as the
CIFAR-10 and Fashion-MNIST tutorials show their data; fast-forward gave
it a placeholder, and the resume crashed: "cannot unpack non-iterable
Skipped object" — the session-76 first binary). Checkpoints every --ckpt-every
steps; DETC_TEST_FAIL=PHASE:STEP (forward, backward, hang) fails the
minibatch with global number STEP, for the just-in-time tests.

usage: tqdm_train.py [--epochs N] [--ckpt-every N] --out FILE
"""
import argparse
import logging
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm

FAIL = os.environ.get("DETC_TEST_FAIL", "")
PHASE, _, AT = FAIL.partition(":")
AT = int(AT) if AT else -1
log = logging.getLogger("train")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(6, 12, num_layers=2, dropout=0.2, batch_first=True)
        self.drop = nn.Dropout(0.3)
        self.head = nn.Linear(12, 3)
        self.calls = 0

    def forward(self, x):
        h, _ = self.rnn(x)
        h = self.drop(h[:, -1])
        if self.training:
            self.calls += 1
            if self.calls == AT and PHASE == "forward":
                raise RuntimeError("injected failure in the forward")
            if self.calls == AT and PHASE == "hang":
                time.sleep(10 ** 6)
            if self.calls == AT and PHASE == "backward":
                h.register_hook(_fail_backward)
        return self.head(h)


def _fail_backward(grad):
    raise RuntimeError("injected failure in the backward")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--ckpt-every", type=int, default=5)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    torch.manual_seed(2)
    data = TensorDataset(torch.randn(120, 4, 6), torch.arange(120) % 3)
    loader = DataLoader(data, batch_size=8, shuffle=True, num_workers=2)
    dataiter = iter(loader)
    images, labels = next(dataiter)
    print("first batch", tuple(images.shape), labels[:4].tolist())
    model = Net()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    pbar = tqdm(total=args.epochs * len(loader), file=sys.stderr,
                disable=True)
    history = open(args.out + ".log", "a")
    step = 0
    for epoch in range(args.epochs):
        for i, (x, y) in enumerate(tqdm(loader, leave=False, disable=True)):
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            pbar.update(1)
            history.write("%d %d %.6f\n" % (epoch, i, loss.item()))
            log.info("step %d", step)
            print("done %d:%d" % (epoch, i), flush=True)
            step += 1
            if step % args.ckpt_every == 0:
                torch.save({"model": model.state_dict(),
                            "optimizer": optimizer.state_dict(),
                            "step": step}, args.out)
    pbar.close()
    history.close()
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, args.out)


if __name__ == "__main__":
    main()

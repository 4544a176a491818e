"""Progress bars shaped like pytorch-gan-collections' and ViT-pytorch's
loops (issue 41): `with trange(...) as pbar: for epoch in pbar:`, a bar
built again each epoch around the loader (`epoch_iterator =
tqdm(loader)`, then `for i, b in enumerate(epoch_iterator)`), and the
bars' display calls inside (`set_description`, `set_postfix`, an
assignment to `desc`). Dropout
and a shuffling loader with workers, so a restart that loses a
generator's state or the loader's position shows in the weights.
DETC_TEST_FAIL=PHASE:STEP (forward, backward, hang) fails the minibatch
with global number STEP, for the just-in-time tests.

usage: jit_bar_train.py [--epochs N] --out FILE
"""
import argparse
import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm, trange

PHASE, _, AT = os.environ.get("DETC_TEST_FAIL", "").partition(":")
AT = int(AT) if AT else -1


def fail_backward(grad):
    raise RuntimeError("injected failure in the backward")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3))
        self.head = nn.Linear(16, 3)
        self.calls = 0

    def forward(self, x):
        h = self.body(x)
        if self.training:
            self.calls += 1
            if self.calls == AT and PHASE == "forward":
                raise RuntimeError("injected failure in the forward")
            if self.calls == AT and PHASE == "hang":
                time.sleep(10 ** 6)
            if self.calls == AT and PHASE == "backward":
                h.register_hook(fail_backward)
        return self.head(h)


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
    with trange(args.epochs, disable=True) as pbar:
        for epoch in pbar:
            epoch_iterator = tqdm(loader, desc="Training", disable=True)
            for i, (x, y) in enumerate(epoch_iterator):
                loss = F.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                epoch_iterator.set_description("Training (loss=%.5f)" %
                                               loss.item())
                # (WZMIAOMIAO's scripts set the description directly.)
                epoch_iterator.desc = "Training (step %d)" % i
                pbar.set_postfix(loss="%.4f" % loss.item())
                print("done %d:%d" % (epoch, i), flush=True)
    torch.save({"model": model.state_dict(),
                "optimizer": optimizer.state_dict()}, args.out)


if __name__ == "__main__":
    main()

"""Batches no loader makes, in the shape of nanoGPT's train.py: at module
level, `while True:`, each batch taken at offsets drawn from torch's
generator (`get_batch`), the next batch fetched ahead at the end of the
iteration, gradient accumulation in an inner loop, an optimizer step
each iteration. The just-in-time boundary goes first in the `while` body;
a restart must give the batch fetched ahead, the counter and torch's
generator back as they were. The model (failing_net.py) fails as
DETC_TEST_FAIL=PHASE:STEP asks.

usage: jit_drawn_batches_train.py [--iters N] --out FILE
"""
import argparse
import time

import torch
import torch.nn.functional as F

from failing_net import Net

parser = argparse.ArgumentParser()
parser.add_argument("--iters", type=int, default=16)
parser.add_argument("--out", required=True)
args = parser.parse_args()
torch.manual_seed(1337)
data = torch.randn(200, 6)
labels = torch.arange(200) % 3
model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
accumulation = 2


def get_batch(size=8):
    ix = torch.randint(len(data), (size,))
    return data[ix], labels[ix]


X, Y = get_batch()
iter_num = 0
while True:
    for micro_step in range(accumulation):
        loss = F.cross_entropy(model(X), Y) / accumulation
        X, Y = get_batch()
        loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    print("done %d" % iter_num, flush=True)
    # A real step's time: the harness's SIGTERM, sent once it reads a
    # minibatch's line (polling every 10 ms), lands while the run goes on.
    time.sleep(0.03)
    iter_num += 1
    if iter_num >= args.iters:
        break
torch.save({"model": model.state_dict(),
            "optimizer": optimizer.state_dict()}, args.out)

"""A training loop over a count, in the shape of yenchenlin/nerf-pytorch's
`for i in trange(start, N_iters)`: no DataLoader and no slice by the loop
variable; each step picks an image with np.random.choice and its rays
with torch.randperm from tensors in memory, the rendering perturbs its
samples with torch.rand, the model has dropout, and a checkpoint is
written every few steps (NeRF's `i % i_weights`). detc takes the loop's
body as one step's per-batch region and reports those draws; the
transform leaves them on the global generators, whose states every
checkpoint saves. A just-in-time restart restores numpy's as of the
minibatch's start: it used to take it as of the failure, after the failed
minibatch's np.random.choice (restarts were not bit-identical).
DETC_TEST_FAIL=PHASE:STEP as in jit_train.py (forward, backward, hang).

usage: counted_steps_train.py [--steps N] --out FILE
"""
import argparse
import os
import time

import numpy as np
import torch
import torch.nn as nn
from tqdm import trange

FAIL = os.environ.get("DETC_TEST_FAIL", "")
PHASE, _, AT = FAIL.partition(":")
AT = int(AT) if AT else -1


class Field(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, width), nn.ReLU(),
                                 nn.Dropout(0.2), nn.Linear(width, 3))
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        if self.calls == AT and PHASE == "forward":
            raise RuntimeError("injected failure in the forward")
        if self.calls == AT and PHASE == "hang":
            time.sleep(10 ** 6)
        out = self.net(x)
        if self.calls == AT and PHASE == "backward":
            out.register_hook(_fail_backward)
        return out


def _fail_backward(grad):
    raise RuntimeError("injected failure in the backward")


def render(model, rays, perturb):
    t = torch.rand(rays.shape[0], 1) * perturb
    return model(rays * (1 + t))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=24)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    np.random.seed(3)
    torch.manual_seed(3)
    images = torch.rand(5, 32, 3)
    targets = images.flip(-1)
    model = Field()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    for i in trange(0, args.steps, disable=True):
        img_i = np.random.choice(len(images))
        select = torch.randperm(32)[:8]
        rays, target = images[img_i][select], targets[img_i][select]
        loss = (render(model, rays, 0.5) - target).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print("done %d" % i, flush=True)
        if (i + 1) % 6 == 0:
            torch.save({"model": model.state_dict(),
                        "optimizer": optimizer.state_dict(),
                        "global_step": i}, args.out)


if __name__ == "__main__":
    main()

import torch

import counters

STEPS = 0


def train(model, loader, opt):
    global STEPS
    for x in loader:
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
        STEPS += 1
        counters.bump(STEPS)


# detc-misplaced-zero-grad, precision: a one-off backward before training
# (llm.c's train_gpt2.py computes reference gradients for its C tests, then
# trains), and a training step that zeroes the gradients before its
# gradient-accumulation loop, whose backward may be skipped: a backward may
# run between that zero_grad and the step, so it clears gradients before
# they are computed (the path through a micro-step loop run no time, or a
# skipped backward, is no misplaced zero_grad). Reported before. A zero_grad
# after the accumulation loop is still found.
# RUN: not detc analyze %s --werror | FileCheck %s
import argparse

import torch
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--inference-only", action="store_true")
parser.add_argument("--write-reference", action="store_true")
args = parser.parse_args()
model = nn.Linear(4, 2)
opt = torch.optim.AdamW(model.parameters(), lr=0.1)
x, y = torch.ones(3, 4), torch.zeros(3, 2)
accumulation = 2

if args.write_reference and not args.inference_only:
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    torch.save({n: p.grad for n, p in model.named_parameters()}, "ref.pt")

for step in range(4):
    opt.zero_grad(set_to_none=True)
    for micro_step in range(accumulation):
        loss = ((model(x) - y) ** 2).mean() / accumulation
        if not args.inference_only:
            loss.backward()
    opt.step()


def misplaced(steps):
    for step in range(steps):
        for micro_step in range(accumulation):
            (((model(x) - y) ** 2).mean() / accumulation).backward()
        # CHECK: zero_grad_before_accumulation.py:[[@LINE+1]]:9: warning: zero_grad() runs after backward() and before the optimizer step at line [[@LINE+2]]: the step applies zeroed gradients [detc-misplaced-zero-grad]
        opt.zero_grad()
        opt.step()


misplaced(2)
# CHECK: 1 warning(s)

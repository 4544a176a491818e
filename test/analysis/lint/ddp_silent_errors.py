# A DDP job's silent errors: the training forward through `ddp.module`
# (detc-ddp-module-forward: no gradient all-reduce), and an optimizer step
# and a gradient clipping under a test of the rank
# (detc-rank-conditional-update), also inside a helper and with the rank
# read from dist.get_rank() or the environment. Logging and saving under
# the rank test, and `.module` in the evaluation (no backward in its loop),
# are silent; so is the fixed job. Work done on both sides of a rank test
# is done on every rank (vits: `if rank == 0: train_and_evaluate(...,
# logger) else: train_and_evaluate(..., None)`): silent; what only one side
# does is not.
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: sed -e 's/ddp.module(x)/ddp(x)/' -e 's/if rank == 0:  # step/if True:/' -e 's/if dist.get_rank() == 0:/if True:/' -e 's/opt.step()  # rank 0.s/pass/' -e 's/if int(os.environ\["RANK"\]) == 0:/if True:/' %s > %t.fixed.py
# RUN: detc analyze %t.fixed.py --werror | FileCheck %s --check-prefix=FIXED
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP


def clip(model):
    if int(os.environ["RANK"]) == 0:
        # CHECK-DAG: ddp_silent_errors.py:[[@LINE+1]]:9: warning: gradient clipping runs on some ranks only (under the test of the rank at line [[@LINE-1]]): the replicas then step with different gradients and drift apart; run it on every rank and keep rank-only work (logging, saving) under the test [detc-rank-conditional-update]
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)


def train_epoch(ddp, opt, data, log):
    for x in data:
        loss = ddp(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if log is not None:
            log.append(loss.item())


def both_sides(rank, ddp, opt, data):
    for epoch in range(2):
        if rank == 0:
            train_epoch(ddp, opt, data, [])
        else:
            train_epoch(ddp, opt, data, None)
    if rank == 0:
        opt.zero_grad()
        ddp(data[0]).sum().backward()
        # CHECK-DAG: ddp_silent_errors.py:[[@LINE+1]]:9: warning: the optimizer step runs on some ranks only (under the test of the rank at line [[@LINE-3]])
        opt.step()  # rank 0's
    else:
        opt.zero_grad()
        ddp(data[1]).sum().backward()


def main():
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    ddp = DDP(nn.Linear(4, 2))
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    data = [torch.randn(8, 4) for _ in range(4)]
    for epoch in range(2):
        for x in data:
            # CHECK-DAG: ddp_silent_errors.py:[[@LINE+1]]:20: warning: the training forward calls `ddp.module` around its DistributedDataParallel wrapper: no gradient is all-reduced, so the replicas drift apart; call `ddp(...)` itself [detc-ddp-module-forward]
            loss = ddp.module(x).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            clip(ddp)
            if rank == 0:  # step
                # CHECK-DAG: ddp_silent_errors.py:[[@LINE+1]]:17: warning: the optimizer step runs on some ranks only
                opt.step()
            if dist.get_rank() == 0:
                # CHECK-DAG: ddp_silent_errors.py:[[@LINE+1]]:17: warning: the backward runs on some ranks only {{.*}} (or the other ranks wait for its all-reduce forever)
                ddp(x).sum().backward()
            if rank == 0:
                print("loss", loss.item())
        with torch.no_grad():
            for x in data:
                ddp.module(x)
        if rank == 0:
            torch.save(ddp.module.state_dict(), "model.pt")
    both_sides(rank, ddp, opt, data)


main()
# CHECK: 5 warning(s)
# FIXED-NOT: warning:
# FIXED: 0 warning(s)

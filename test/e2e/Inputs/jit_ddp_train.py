"""Data-parallel training for just-in-time checkpointing (docs/jit.md):
DistributedDataParallel over gloo, a DistributedSampler with set_epoch, a
dropout layer, momentum SGD; rank 0 writes a checkpoint at the end of each
epoch. Launched once per rank with MASTER_ADDR, MASTER_PORT, RANK and
WORLD_SIZE set (as torchrun sets them). Logs `done E:S` after each step.

DETC_TEST_FAIL=PHASE:STEP:RANK makes minibatch STEP fail on rank RANK in
PHASE: `forward` (an exception), `hang` (the forward never returns; the
other rank then waits in the gradient all-reduce), `allreduce` (the
gradient all-reduce's communication hook raises on that rank) or `step`
(the optimizer step raises after it has updated the parameters).

usage: jit_ddp_train.py [--epochs N] --out FILE
"""
import argparse
import os
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

PHASE, _, REST = os.environ.get("DETC_TEST_FAIL", "").partition(":")
AT, _, FAIL_RANK = REST.partition(":")
AT = int(AT) if AT else -1


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 32)
        self.drop = nn.Dropout(0.2)
        self.fc2 = nn.Linear(32, 3)
        self.calls = 0

    def failing(self, phase):
        return (PHASE == phase and self.calls == AT and
                str(dist.get_rank()) == FAIL_RANK)

    def forward(self, x):
        self.calls += 1
        if self.calls == AT and str(dist.get_rank()) == FAIL_RANK:
            if PHASE == "forward":
                raise RuntimeError("injected failure in the forward")
            if PHASE == "hang":
                print("hanging at %.3f" % time.time(), flush=True)
                time.sleep(10 ** 6)
        return self.fc2(self.drop(F.relu(self.fc1(x))))


class SGD(torch.optim.SGD):
    """Momentum SGD whose step can fail half done (DETC_TEST_FAIL=step)."""

    def __init__(self, params, net, **kwargs):
        super().__init__(params, **kwargs)
        self.net = net

    def step(self, closure=None):
        loss = super().step(closure)
        if self.net.failing("step"):
            raise RuntimeError("injected failure in the optimizer step")
        return loss


def allreduce(net, bucket):
    if net.failing("allreduce"):
        raise RuntimeError("injected failure in the gradient all-reduce")
    return default_hooks.allreduce_hook(None, bucket)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(256, 8), torch.randint(0, 3, (256,)))
    sampler = DistributedSampler(data, shuffle=True)
    loader = DataLoader(data, batch_size=16, sampler=sampler)
    net = Net()
    model = DDP(net)
    model.register_comm_hook(net, allreduce)
    optimizer = SGD(model.parameters(), net, lr=0.05, momentum=0.9)
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        for step, (x, y) in enumerate(loader):
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            print("done %d:%d" % (epoch, step), flush=True)
        if rank == 0:
            torch.save({"model": model.module.state_dict(),
                        "optimizer": optimizer.state_dict()}, args.out)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()

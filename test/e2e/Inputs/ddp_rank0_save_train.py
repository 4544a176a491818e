"""A 2-rank DDP job (gloo, torch.multiprocessing.spawn) in the shape most
DDP scripts have: each rank seeds `seed + rank`, a DistributedSampler
splits the data, and only rank 0 writes the checkpoint, inline
(`if rank == 0: torch.save(...)`) or through a helper that tests the rank
itself (`--helper`: `save_on_master`), or every rank writes it, with no
rank test (`--all-ranks`: whichever rank's sidecar lands must hold every
rank's state; the session-65 first runtime stopped the resume of every
rank but the last writer with exit 3). Each epoch draws per-rank noise
from the global generators (torch's and numpy's) that changes the weights
through the gradients DDP averages: a rank resumed with rank 0's
generators instead of its own ends with other weights. Each rank keeps a
history of its own losses, which detc saves beside the checkpoint (a
value live across it): a rank resumed with rank 0's history ends with
another (the session-65 runtime refused rank 1's resume, exit 3). Each
rank prints a digest of its weights, generators and history at the
end."""
import argparse
import hashlib
import io
import os

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def save_on_master(state, path):
    if dist.get_rank() == 0:
        torch.save(state, path)


def digest(model, history):
    h = hashlib.sha256(repr(history).encode())
    for t in model.state_dict().values():
        h.update(t.numpy().tobytes())
    h.update(torch.get_rng_state().numpy().tobytes())
    h.update(repr(np.random.get_state()[1][:4].tolist()).encode())
    return h.hexdigest()[:16]


def main_worker(rank, world, args):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(args.port)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(args.seed + rank)
    np.random.seed(args.seed + rank)
    g = torch.Generator().manual_seed(1234)
    x = torch.randn(48, 6, generator=g)
    y = (x[:, 0] > 0).long()
    ds = TensorDataset(x, y)
    sampler = DistributedSampler(ds, num_replicas=world, rank=rank,
                                 shuffle=True, seed=args.seed)
    loader = DataLoader(ds, batch_size=4, sampler=sampler)
    model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Dropout(0.25),
                          nn.Linear(12, 2))
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(ddp.parameters(), lr=0.05, momentum=0.9)
    history = []
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        # per-rank noise from the global generators, once per epoch
        scale = 1.0 + 0.1 * float(np.random.rand()) + 0.1 * float(torch.rand(1))
        for xb, yb in loader:
            loss = scale * F.cross_entropy(ddp(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            # The job's loss, the same on every rank.
            job_loss = loss.detach().clone()
            dist.all_reduce(job_loss)
        # This rank's own loss beside the job's; detc saves the history.
        history.append((float(loss), float(job_loss)))
        state = {"model": model.state_dict(), "opt": opt.state_dict(),
                 "epoch": epoch}
        if args.helper:
            save_on_master(state, args.out)
        if not args.helper and not args.all_ranks and rank == 0:
            torch.save(state, args.out)
        # Every rank saves, with no test around it (in the other modes into
        # an io.BytesIO: a copy in memory, not a checkpoint).
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(),
                    "epoch": epoch},
                   args.out if args.all_ranks else io.BytesIO())
        dist.barrier()
    print("final rank %d: %s %d" % (rank, digest(model, history),
                                     len(history)),
          flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--port", type=int, default=29541)
    parser.add_argument("--helper", action="store_true")
    parser.add_argument("--all-ranks", action="store_true")
    parser.add_argument("--world", type=int, default=2)
    args = parser.parse_args()
    mp.spawn(main_worker, nprocs=args.world, args=(args.world, args))

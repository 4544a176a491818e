"""A training script whose process has an exception hook that captures
stderr, as torch.distributed's init_process_group installs one (torch >=
2.1: it swaps sys.stderr for a StringIO around the hook it wraps, to
prefix each line with the rank). Written out here so the test runs on
torch 1.13 too. detc's refusal of a checkpoint that does not fit (a model
of another --hidden) ends the process with os._exit: printed into that
StringIO, its message was lost, and the run stopped with exit 2 and no
word (DINO's main_dino.py, session 62).

The checkpoint holds the parsed arguments (`"args": args`, as DINO's, DeiT's
and MAE's do): a resume keeps its own command line. The session-62 first
binary assigned them from the checkpoint, so a resume (from an epoch's
copy) with another --out overwrote the first run's file.

usage: rank_prefixed_stderr_train.py --out FILE [--hidden N] [--epochs N]
"""
import argparse
import io
import sys

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def install_rank_prefix_hook(rank):
    previous = sys.excepthook

    def hook(kind, value, tb):
        old_stderr = sys.stderr
        sys.stderr = buf = io.StringIO()
        try:
            previous(kind, value, tb)
        finally:
            sys.stderr = old_stderr
        sys.stderr.write("".join("[rank%d]: %s\n" % (rank, line)
                                 for line in buf.getvalue().splitlines()))

    sys.excepthook = hook


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--hidden", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    install_rank_prefix_hook(0)
    torch.manual_seed(0)
    loader = DataLoader(TensorDataset(torch.randn(16, 4),
                                      torch.randint(0, 2, (16,))),
                        batch_size=4, shuffle=True)
    model = torch.nn.Sequential(torch.nn.Linear(4, args.hidden),
                                torch.nn.Dropout(0.1),
                                torch.nn.Linear(args.hidden, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        state = {"model": model.state_dict(), "opt": opt.state_dict(),
                 "epoch": epoch, "args": args}
        torch.save(state, "%s.epoch%d" % (args.out, epoch))
        torch.save(state, args.out)


if __name__ == "__main__":
    main()

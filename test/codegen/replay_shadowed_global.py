# SwAV's main_swav.py around its checkpoint (facebookresearch/swav): a
# module-level `logger` that `train` logs each step's loss to, and `main`
# binding a local `logger, training_stats = initialize_exp(...)` of its
# own. The global is live across the checkpoint in `main` (train logs to
# it next epoch) but `main` cannot name it; the session-67 first binary
# wrote no sidecar ("'logger' must be saved but is not visible where the
# checkpoint is written"). The restore reaches it through the module's
# namespace, `globals()["logger"]`, keyed by its global name; a logger is
# output only: the runtime never saves it, the resumed run logs to the one
# its setup made.
# RUN: rm -rf %t && mkdir -p %t
# RUN: detc transform %s --emit-python -o %t/train.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t/train.py
# DIAG-NOT: detc writes no sidecar
# CHECK: _detc_rt.announce_checkpoint([[S:[0-9]+]], {"@logger": lambda: globals()["logger"],
# CHECK: if _detc_rt.has_value("@logger"): globals()["logger"] = _detc_rt.saved_value("@logger", lambda: globals()["logger"])
# The run, then a resume from its checkpoint after the first epoch: the
# statistics main keeps are the run's.
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --epochs 2 > run.txt
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --epochs 2 --stop-after 1 > /dev/null
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --epochs 2 --detc-resume ck.pt > resumed.txt
# RUN: diff %t/run.txt %t/resumed.txt
import argparse
from logging import getLogger

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

logger = getLogger()


class Stats:
    def __init__(self):
        self.rows = []

    def update(self, row):
        self.rows.append(row)


def initialize_exp():
    return getLogger("exp"), Stats()


def train(loader, model, optimizer, epoch):
    total = 0.0
    for it, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        logger.info("epoch %d it %d loss %.3f", epoch, it, loss.item())
    return epoch, round(total, 4)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--stop-after", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(0)
    logger, training_stats = initialize_exp()
    loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.arange(32) % 2),
                        batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        scores = train(loader, model, optimizer, epoch)
        training_stats.update(scores)
        logger.info("epoch %d done", epoch)
        save_dict = {"epoch": epoch + 1, "state_dict": model.state_dict(),
                     "optimizer": optimizer.state_dict()}
        torch.save(save_dict, args.out)
        if args.stop_after and epoch + 1 == args.stop_after:
            return
    print(training_stats.rows)


if __name__ == "__main__":
    main()

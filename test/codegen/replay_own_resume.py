# A script that resumes itself (VICReg's, ConvNeXt's and Swin's shape: `if
# os.path.isfile(path): ckpt = torch.load(path)` at the start, the loop
# from `ckpt["epoch"]`), evaluating after each checkpoint. Rerun after a
# crash, the transformed script went on with detc's generators, streams and
# loader positions started afresh: other weights than the uninterrupted
# run, exit 0 (the session-67 runtime only said so). Now the run that
# writes a checkpoint records where it goes on (the next pass over each
# loader) and the script's own resume continues there: the same weights,
# bit for bit, as the run that was never stopped.
# RUN: rm -rf %t && mkdir -p %t
# RUN: detc transform %s --emit-python -o %t/train.py
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out full.pt > full.out 2> full.err
# RUN: cd %t && not env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --crash-at 1 2> first.err
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt > resumed.out 2> second.err
# RUN: diff %t/full.out %t/resumed.out
# RUN: FileCheck %s --check-prefix=FIRST < %t/first.err
# RUN: FileCheck %s --check-prefix=SECOND < %t/second.err
# FIRST: RuntimeError: crash in epoch 1
# FIRST-NOT: resumes from
# SECOND: detc-runtime: the script resumes from ck.pt with its own code; detc continues the run that wrote it (its generators, streams and loader positions as they were at this pass)
# SECOND-NOT: warning
#
# The same through an open file (`with open(path, "rb") as f:
# torch.load(f)`).
# RUN: rm -f %t/ck.pt*
# RUN: cd %t && not env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --crash-at 1
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --open-file > opened.out 2> opened.err
# RUN: diff %t/full.out %t/opened.out
# RUN: FileCheck %s --check-prefix=SECOND < %t/opened.err
#
# Stopped right after the save, before its loop went on: nothing says where
# that run would have gone on, and the resume says it does not continue it.
# RUN: rm -f %t/ck.pt*
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --stop-after 1
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt 2> early.err
# RUN: FileCheck %s --check-prefix=EARLY < %t/early.err
# EARLY: detc-runtime: warning: ck.pt: the script resumed from this checkpoint with its own code, and this run does not continue the one that wrote it bit for bit: the run that wrote it stopped before its loop went on past the checkpoint (detc records where it went on at the next pass over each DataLoader) (--detc-resume ck.pt continues it, when the script's own resume is not taken)
# EARLY-NOT: warning
#
# A resume that leaves the optimizer's momentum out is not the run that
# wrote the checkpoint: detc names it and sets nothing.
# RUN: rm -f %t/ck.pt*
# RUN: cd %t && not env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --crash-at 1
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --fresh-optimizer 2> fresh.err
# RUN: FileCheck %s --check-prefix=FRESH < %t/fresh.err
# FRESH: detc-runtime: warning: ck.pt: the script resumed from this checkpoint with its own code, and this run does not continue the one that wrote it bit for bit: 'optimizer' (in main) is not the state that run had here (the script's own resume does not restore it, or loads the checkpoint to start another run)
#
# Loading the checkpoint after training (to evaluate it) is no resume and
# says nothing.
# RUN: FileCheck %s --check-prefix=FULL --allow-empty < %t/full.err
# FULL-NOT: warning
import argparse
import hashlib
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def evaluate(model, loader):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            total += F.cross_entropy(model(x), y).item()
    # A draw of the script's own between the save and the next epoch.
    total += torch.rand(1).item() * 1e-3
    model.train()
    return total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--stop-after", type=int, default=0)
    parser.add_argument("--crash-at", type=int, default=-1)
    parser.add_argument("--fresh-optimizer", action="store_true")
    parser.add_argument("--open-file", action="store_true")
    args = parser.parse_args()
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(32, 4), torch.arange(32) % 2)
    loader = DataLoader(data, batch_size=8, shuffle=True)
    val_loader = DataLoader(data, batch_size=16)
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    start_epoch = 0
    if os.path.isfile(args.out):
        if args.open_file:
            with open(args.out, "rb") as f:
                ckpt = torch.load(f)
        else:
            ckpt = torch.load(args.out)
        start_epoch = ckpt["epoch"]
        model.load_state_dict(ckpt["model"])
        if not args.fresh_optimizer:
            optimizer.load_state_dict(ckpt["optimizer"])
    for epoch in range(start_epoch, 3):
        for step, (x, y) in enumerate(loader):
            if epoch == args.crash_at and step == 2:
                raise RuntimeError("crash in epoch %d" % epoch)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        torch.save({"epoch": epoch + 1, "model": model.state_dict(),
                    "optimizer": optimizer.state_dict()}, args.out)
        if args.stop_after and epoch + 1 == args.stop_after:
            return
        evaluate(model, val_loader)
    model.load_state_dict(torch.load(args.out)["model"])
    weights = b"".join(p.detach().numpy().tobytes()
                       for p in model.parameters())
    print(hashlib.sha256(weights).hexdigest())


if __name__ == "__main__":
    main()

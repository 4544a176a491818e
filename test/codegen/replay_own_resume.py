# A script that resumes itself (VICReg's, ConvNeXt's and Swin's shape: `if
# os.path.isfile(path): ckpt = torch.load(path)` at the start, the loop
# from `ckpt["epoch"]`). Rerun after a crash, the transformed script went
# on with detc's generators, streams and loader positions started afresh:
# other weights than the uninterrupted run, exit 0, no word (the
# session-67 first runtime). The runtime now says so when a fresh run's
# own code loads a checkpoint this script wrote before writing one itself;
# loading the checkpoint after training (to evaluate it) is no resume and
# says nothing.
# RUN: rm -rf %t && mkdir -p %t
# RUN: detc transform %s --emit-python -o %t/train.py
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --stop-after 1 2> first.err
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt 2> second.err
# RUN: FileCheck %s --check-prefix=FIRST --allow-empty < %t/first.err
# RUN: FileCheck %s --check-prefix=SECOND < %t/second.err
# FIRST-NOT: resumes from this checkpoint
# SECOND: detc-runtime: warning: ck.pt: the script resumes from this checkpoint with its own code: detc's generators, streams and loader positions start afresh, so this run does not continue the one that wrote it bit for bit (--detc-resume ck.pt does, when the script's own resume is not taken)
# SECOND-NOT: resumes from this checkpoint
import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--stop-after", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(0)
    loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.arange(32) % 2),
                        batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    start_epoch = 0
    if os.path.isfile(args.out):
        ckpt = torch.load(args.out)
        start_epoch = ckpt["epoch"]
        model.load_state_dict(ckpt["model"])
        optimizer.load_state_dict(ckpt["optimizer"])
    for epoch in range(start_epoch, 3):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        torch.save({"epoch": epoch + 1, "model": model.state_dict(),
                    "optimizer": optimizer.state_dict()}, args.out)
        if args.stop_after and epoch + 1 == args.stop_after:
            return
    model.load_state_dict(torch.load(args.out)["model"])
    print(sum(p.sum().item() for p in model.parameters()))


if __name__ == "__main__":
    main()

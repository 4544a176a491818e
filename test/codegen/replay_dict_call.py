# Barlow Twins' checkpoint (facebookresearch/barlowtwins main.py): the
# state is built with `dict(...)` keywords, not a display, and saved from a
# variable: `state = dict(epoch=epoch + 1, model=model.state_dict(),
# optimizer=optimizer.state_dict()); torch.save(state, path)`. Its entries
# are restored like a display's, and the save is announced and skipped in
# fast-forward with it. With the session-67 first binary the resume
# crashed (UnboundLocalError: the save read `state`, which fast-forward
# had skipped building; the restore would have read it too), and the
# sidecar held the model and optimizer a second time.
# RUN: rm -rf %t && mkdir -p %t
# RUN: detc transform %s --emit-python -o %t/train.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t/train.py
# DIAG-NOT: detc writes no sidecar
# CHECK: _detc_rt.announce_checkpoint([[S:[0-9]+]], loops=("epoch",))
# CHECK: if _detc_rt.restoring([[S]]):
# CHECK-NEXT: _detc_ckpt = _detc_rt.user_checkpoint()
# CHECK-NEXT: state = _detc_ckpt
# CHECK-NEXT: model.load_state_dict(_detc_ckpt['model'])
# CHECK-NEXT: optimizer.load_state_dict(_detc_ckpt['optimizer'])
# CHECK-NEXT: _detc_rt.resumed({'model': lambda: model.state_dict(), 'optimizer': lambda: optimizer.state_dict()})
# The run, then a resume from its checkpoint after the first epoch, with
# the run's weights at the end.
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt > run.txt
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --stop-after 1 > /dev/null
# RUN: cd %t && env PYTHONPATH=%detc_runtime DETC_QUIET=1 %python train.py --out ck.pt --detc-resume ck.pt > resumed.txt
# RUN: diff %t/run.txt %t/resumed.txt
import argparse

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
    for epoch in range(3):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        state = dict(epoch=epoch + 1, model=model.state_dict(),
                     optimizer=optimizer.state_dict())
        torch.save(state, args.out)
        if args.stop_after and epoch + 1 == args.stop_after:
            return
    print(sum(p.sum().item() for p in model.parameters()))


if __name__ == "__main__":
    main()

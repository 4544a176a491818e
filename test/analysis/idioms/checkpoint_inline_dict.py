# Idiom 7 (issue 17), the ImageNet example's exact shape: the checkpoint
# state is a dict display written as the helper's argument,
# `save_checkpoint({"epoch": ..., "state_dict": model.state_dict(), ...},
# is_best)`, and the helper calls torch.save(state, filename). What the
# display restores is saved (no temporary in the report); `epoch + 1`
# restores nothing (the loop position is saved by detc).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK: checkpoint_inline_dict.py:[[@LINE+10]]:5: note: replay from this checkpoint [detc-replay]
# CHECK-NEXT: torch.save(state, filename)
# CHECK: saved by the checkpoint: args.arch, model, best_acc1, optimizer{{$}}
# CHECK: saved by detc: loop positions: epoch (line 31)
import argparse

import torch


def save_checkpoint(state, is_best, filename="checkpoint.pth.tar"):
    torch.save(state, filename)
    if is_best:
        print("best so far")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="linear")
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    model = torch.nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    best_acc1 = 0.0
    for epoch in range(args.epochs):
        optimizer.zero_grad()
        loss = model(torch.ones(1, 4)).sum()
        loss.backward()
        optimizer.step()
        acc1 = -loss.item()
        is_best = acc1 > best_acc1
        best_acc1 = max(acc1, best_acc1)
        save_checkpoint({
            "epoch": epoch + 1,
            "arch": args.arch,
            "state_dict": model.state_dict(),
            "best_acc1": best_acc1,
            "optimizer": optimizer.state_dict(),
        }, is_best)


if __name__ == "__main__":
    main()

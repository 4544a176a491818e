# Idiom 7 (issue 17): the checkpoint state is built in a variable and saved
# by a helper, as the ImageNet example does: `state = {..., 'state_dict':
# model.module.state_dict(), 'best_acc1': best_acc1, ...}` then
# save_checkpoint(state, is_best) calls torch.save(state, filename). An
# entry added by subscript (`state["scheduler"] = ...`) counts too. The
# Needed report shows model (through the DataParallel wrapper's .module),
# best_acc1, optimizer and scheduler as saved by the user, and lists what is
# read after the checkpoint but not saved: `history` (printed at the end)
# and `is_best` (read by the helper after torch.save).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK: checkpoint_helper.py:[[@LINE+13]]:5: note: replay from this checkpoint [detc-replay]
# CHECK: saved by the checkpoint: state, model, best_acc1, optimizer, scheduler{{$}}
# CHECK: saved by detc: loop positions: epoch (line 50)
# CHECK: saved by detc (needed, not re-derivable): history [{{.*}}], is_best [{{.*}}]{{$}}
import argparse
import shutil

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def save_checkpoint(state, is_best, filename="checkpoint.pth.tar"):
    torch.save(state, filename)
    if is_best:
        shutil.copyfile(filename, "model_best.pth.tar")


def validate(loader, model):
    model.eval()
    correct = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
    return correct / len(loader.dataset)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()
    data = TensorDataset(torch.randn(64, 8), torch.randint(0, 2, (64,)))
    loader = DataLoader(data, batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.2), nn.Linear(16, 2))
    model = nn.DataParallel(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1)
    best_acc1 = 0.0
    history = []
    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
        scheduler.step()
        acc1 = validate(loader, model)
        is_best = acc1 > best_acc1
        best_acc1 = max(acc1, best_acc1)
        history.append(acc1)
        state = {
            "epoch": epoch + 1,
            "state_dict": model.module.state_dict(),
            "best_acc1": best_acc1,
            "optimizer": optimizer.state_dict(),
        }
        state["scheduler"] = scheduler.state_dict()
        save_checkpoint(state, is_best)
    print(history)


if __name__ == "__main__":
    main()

"""Training in the shape of pytorch/examples' imagenet/main.py: everything
in `main_worker(gpu, args)` (ImageNet calls it directly or through
mp.spawn), `validate()` called before the loop when --evaluate is given
and after each epoch, and the checkpoint written through a
`save_checkpoint(state, is_best)` helper.

`validate` is also called outside the training loop, so fast-forward runs
it in full: its loop over the validation loader now gets real batches
there. It got placeholder batches, and the resume crashed (the session-58
binary: "TypeError: cannot unpack non-iterable Skipped object"); the
sidecar was refused before that ("'model' must be saved but is not
visible": the locals of main_worker's second instance).

usage: validate_in_full_train.py [--workers N] [--epochs N] [--evaluate]
                                 --out FILE"""
import argparse
import shutil
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

best_acc1 = 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--workers', type=int, default=2)
    parser.add_argument('--epochs', type=int, default=4)
    parser.add_argument('--evaluate', action='store_true')
    parser.add_argument('--spawn', action='store_true')
    parser.add_argument('--out', required=True)
    args = parser.parse_args()
    if args.spawn:
        torch.multiprocessing.spawn(main_worker, nprocs=1, args=(args,))
    else:
        main_worker(0, args)


def main_worker(gpu, args):
    global best_acc1
    torch.manual_seed(0)
    x = torch.randn(96, 6)
    y = (x[:, :2].sum(1) > 0).long() + (x[:, 2] > 0.5).long()
    train_loader = DataLoader(TensorDataset(x[:64], y[:64]), batch_size=8,
                              shuffle=True, num_workers=args.workers)
    val_loader = DataLoader(TensorDataset(x[64:], y[64:]), batch_size=8,
                            shuffle=False, num_workers=args.workers)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                          nn.Linear(16, 3))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2,
                                                gamma=0.5)
    if args.evaluate:
        validate(val_loader, model, criterion)
        return
    for epoch in range(args.epochs):
        train(train_loader, model, criterion, optimizer)
        acc1 = validate(val_loader, model, criterion)
        scheduler.step()
        is_best = acc1 > best_acc1
        best_acc1 = max(acc1, best_acc1)
        save_checkpoint({
            'epoch': epoch + 1,
            'state_dict': model.state_dict(),
            'best_acc1': best_acc1,
            'optimizer': optimizer.state_dict(),
            'scheduler': scheduler.state_dict(),
        }, is_best, args.out)


def train(train_loader, model, criterion, optimizer):
    model.train()
    for i, (images, target) in enumerate(train_loader):
        loss = criterion(model(images), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        time.sleep(0.01)  # so that a kill lands inside the loop


def validate(val_loader, model, criterion):
    model.eval()
    correct = 0
    with torch.no_grad():
        for i, (images, target) in enumerate(val_loader):
            correct += (model(images).argmax(1) == target).sum().item()
    return 100.0 * correct / len(val_loader.dataset)


def save_checkpoint(state, is_best, filename):
    torch.save(state, filename)
    if is_best:
        shutil.copyfile(filename, filename + '.best')


if __name__ == '__main__':
    main()

"""DeiT's main.py in small: the training loop in `engine.py`, batches
passed on by `utils.MetricLogger.log_every`, and the checkpoint written by
`utils.save_on_master(...)`, a helper of a module (the session-60 first
binary gave it no sidecar, silently, and a resume from it was refused;
test/e2e/kill_resume.py). `log_every` also serves the evaluation, before
training and after each epoch, so fast-forward runs it in full: after its
`yield` it prints meters that only the training loop's body updates (the
session-61 first binary's resumes died dividing by zero there), and the
epoch's averages, returned from those meters, are printed after the
checkpoint (derived from the training: saved with it).

usage: train.py --out FILE [--epochs N]"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

import utils
from engine import evaluate, train_one_epoch

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--epochs", type=int, default=4)
args = parser.parse_args()


def main(args):
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(48, 6), torch.randint(0, 3, (48,)))
    data_loader_train = DataLoader(data, batch_size=8, shuffle=True,
                                   num_workers=2, drop_last=True)
    data_loader_val = DataLoader(data, batch_size=16)
    model = nn.Sequential(nn.Linear(6, 16), nn.GELU(), nn.Dropout(0.2),
                          nn.Linear(16, 3))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 2)
    print("before training:", evaluate(data_loader_val, model))
    for epoch in range(args.epochs):
        train_stats = train_one_epoch(model, data_loader_train, optimizer,
                                      epoch)
        lr_scheduler.step(epoch)
        utils.save_on_master({
            'model': model.state_dict(),
            'optimizer': optimizer.state_dict(),
            'lr_scheduler': lr_scheduler.state_dict(),
            'epoch': epoch,
            'args': args,
        }, args.out)
        test_stats = evaluate(data_loader_val, model)
        log_stats = {**{f'train_{k}': v for k, v in train_stats.items()},
                     **{f'test_{k}': v for k, v in test_stats.items()},
                     'epoch': epoch}
        print(log_stats)


if __name__ == '__main__':
    main(args)

"""timm's train.py shape around its checkpoints: a saver object from a
module (timm_saver.py) held by `main`, passed to `train_one_epoch`, which
saves a recovery checkpoint every --recovery-every steps and returns the
epoch's mean loss, while `main` saves one after each epoch with a metric
and keeps the best metric and its epoch in locals of its own; both write
under a temporary name and rename it to --out, which the kill/resume test
resumes from. `main`'s locals are not visible where the recovery
checkpoint is written: a resume inside `train_one_epoch` restores them
when it returns (timm's summary header is written while `best_metric is
None`). At the end, --out holds the model and every epoch's record.

usage: timm_saver_train.py [--epochs N] [--recovery-every N] --out FILE
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from timm_saver import CheckpointSaver


def train_one_epoch(epoch, model, loader, optimizer, args, saver=None):
    loss_sum, count = 0.0, 0
    for batch_idx, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_sum += loss.item()
        count += 1
        if saver is not None and (batch_idx + 1) % args.recovery_every == 0:
            saver.save_recovery(epoch, batch_idx=batch_idx)
    return {'loss': loss_sum / count}


def validate(model, data):
    model.eval()
    with torch.no_grad():
        x, y = data.tensors
        loss = F.cross_entropy(model(x), y).item()
    model.train()
    return {'loss': loss}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--recovery-every", type=int, default=3)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    torch.manual_seed(3)
    data = TensorDataset(torch.randn(96, 6), torch.arange(96) % 3)
    loader_train = DataLoader(data, batch_size=8, shuffle=True)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3),
                          nn.Linear(16, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    data_eval = TensorDataset(torch.randn(24, 6), torch.arange(24) % 3)
    saver = CheckpointSaver(model, optimizer, args.out)
    best_metric = None
    best_epoch = None
    results = []
    for epoch in range(args.epochs):
        train_metrics = train_one_epoch(epoch, model, loader_train,
                                        optimizer, args, saver=saver)
        eval_metrics = validate(model, data_eval)
        summary = {'epoch': epoch, 'train': train_metrics,
                   'eval': eval_metrics, 'header': best_metric is None}
        saver.save_checkpoint(epoch, metric=eval_metrics['loss'])
        if best_metric is None or eval_metrics['loss'] < best_metric:
            best_metric, best_epoch = eval_metrics['loss'], epoch
        results.append(summary)
    torch.save({'model': model.state_dict(), 'results': results,
                'best': (best_metric, best_epoch)}, args.out)


if __name__ == "__main__":
    main()

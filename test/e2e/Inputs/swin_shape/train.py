"""microsoft/Swin-Transformer's main.py in small: the checkpoint is written
by `save_checkpoint(out, epoch, model_without_ddp, max_accuracy,
optimizer, lr_scheduler, logger)` of a module, which builds the dict from
its parameters and saves it itself, behind `if get_rank() == 0 and (epoch
% SAVE_FREQ == 0 or epoch == EPOCHS - 1):`; `validate` runs after each
epoch and before the loop (`--eval`), and `max_accuracy` follows it. The
session-64 first binary gave the checkpoint no sidecar ("it saves what a
module the script imports holds").

usage: train.py --out FILE [--epochs N] [--save-freq N] [--eval]"""
import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from models import build_model
from utils import get_rank, save_checkpoint


def train_one_epoch(model, criterion, data_loader, optimizer, epoch,
                    lr_scheduler):
    model.train()
    num_steps = len(data_loader)
    for idx, (samples, targets) in enumerate(data_loader):
        outputs = model(samples)
        loss = criterion(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        lr_scheduler.step()
        time.sleep(0.01)  # so that a kill lands inside the loop


@torch.no_grad()
def validate(data_loader, model):
    model.eval()
    correct, total = 0, 0
    for idx, (images, target) in enumerate(data_loader):
        output = model(images)
        correct += (output.argmax(1) == target).sum().item()
        total += target.size(0)
    return 100.0 * correct / total


def main(args):
    torch.manual_seed(0 + get_rank())
    x = torch.randn(112, 6)
    y = (x[:, :2].sum(1) > 0).long()
    data_loader_train = DataLoader(TensorDataset(x[:64], y[:64]),
                                   batch_size=8, shuffle=True, num_workers=2)
    data_loader_val = DataLoader(TensorDataset(x[64:], y[64:]), batch_size=8,
                                 shuffle=False, num_workers=2)
    model = build_model()
    model_without_ddp = model
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-3)
    lr_scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10,
                                                   gamma=0.7)
    criterion = nn.CrossEntropyLoss()
    logger = []
    max_accuracy = 0.0
    if args.eval:
        print(validate(data_loader_val, model))
        return
    for epoch in range(args.epochs):
        train_one_epoch(model, criterion, data_loader_train, optimizer, epoch,
                        lr_scheduler)
        if get_rank() == 0 and (epoch % args.save_freq == 0 or
                                epoch == (args.epochs - 1)):
            save_checkpoint(args.out, epoch, model_without_ddp, max_accuracy,
                            optimizer, lr_scheduler, logger)
        acc1 = validate(data_loader_val, model)
        max_accuracy = max(max_accuracy, acc1)
        print(f'Max accuracy: {max_accuracy:.2f}%')


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--save-freq", type=int, default=2)
    parser.add_argument("--eval", action="store_true")
    main(parser.parse_args())

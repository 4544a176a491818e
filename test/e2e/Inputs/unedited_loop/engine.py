"""The training loop of the script beside it, in a module of its own (the
shape of DeiT's, MAE's and DETR's `train_one_epoch` in `engine.py`)."""
import torch.nn.functional as F


def train_one_epoch(model, loader, optimizer, epoch):
    model.train()
    total = 0.0
    for step, (x, y) in enumerate(loader):
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / (step + 1)

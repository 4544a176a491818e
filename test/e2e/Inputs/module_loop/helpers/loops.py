"""The training and validation loops (RepDistiller's `helper/loops.py`,
DeiT's `engine.py`): detc edits a copy of this module that the transformed
script installs, so fast-forward skips their forward and backward."""
import torch
import torch.nn.functional as F


class MetricLogger:
    """DeiT's and MAE's `utils.MetricLogger`: a generator passing the
    loader's batches on, printing progress."""

    def __init__(self, print_freq):
        self.print_freq = print_freq

    def log_every(self, iterable, header):
        i = 0
        for obj in iterable:
            yield obj
            if i % self.print_freq == 0:
                print(header, i)
            i += 1


class Meter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value, n):
        self.sum += value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def train(epoch, loader, model, optimizer):
    model.train()
    losses, correct = Meter(), Meter()
    logger = MetricLogger(4)
    header = "epoch %d" % epoch
    for idx, (x, y) in enumerate(logger.log_every(loader, header)):
        out = model(x)
        loss = F.cross_entropy(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.update(loss.item(), x.size(0))
        correct.update((out.argmax(1) == y).float().mean().item(), x.size(0))
    return correct.avg, losses.avg


def validate(loader, model):
    model.eval()
    correct = Meter()
    with torch.no_grad():
        for x, y in loader:
            correct.update((model(x).argmax(1) == y).float().mean().item(),
                           x.size(0))
    return correct.avg, epoch_count(loader)


def epoch_count(loader):
    return len(loader)

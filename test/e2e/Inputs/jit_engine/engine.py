"""The training and evaluation loops of jit_engine/train.py, in a module
of their own as DeiT's, MAE's and DETR's `engine.py` has them (issue 41):
`train_one_epoch` loops over the loader through a metric logger's
`log_every` generator, as MAE's does (`enumerate(metric_logger.log_every(
data_loader, print_freq, header))`), steps the optimizer and counts its
loss in a running sum; `evaluate` loops over another loader and steps
nothing. With --jit-checkpoint detc puts the minibatch boundary into
`train_one_epoch`'s loop and edits this module too; the transformed
script carries the edited copy (runtime overlay.py).
"""
import torch
import torch.nn.functional as F

import misc


def train_one_epoch(model, data_loader, optimizer, epoch):
    model.train(True)
    metric_logger = misc.MetricLogger(delimiter="  ")
    header = 'Epoch: [{}]'.format(epoch)
    print_freq = 4
    running = 0.0
    seen = 0
    for step, (samples, targets) in enumerate(
            metric_logger.log_every(data_loader, print_freq, header)):
        outputs = model(samples)
        loss = F.cross_entropy(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item()
        seen += len(targets)
        metric_logger.update(loss=loss.item())
        print("done %d:%d" % (epoch, step), flush=True)
    return {"loss": running / max(seen, 1)}


@torch.no_grad()
def evaluate(model, data_loader):
    model.eval()
    correct = 0
    for samples, targets in data_loader:
        correct += (model(samples).argmax(1) == targets).sum().item()
    return correct

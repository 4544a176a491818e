"""DeiT's `engine.py`: the training loop of the script beside it."""
import math
import sys

import torch.nn.functional as F

import utils


def train_one_epoch(model, data_loader, optimizer, epoch, max_norm=0):
    model.train()
    metric_logger = utils.MetricLogger(delimiter="  ")
    header = 'Epoch: [{}]'.format(epoch)
    print_freq = 4
    for samples, targets in metric_logger.log_every(data_loader, print_freq,
                                                    header):
        outputs = model(samples)
        loss = F.cross_entropy(outputs, targets)
        loss_value = loss.item()
        if not math.isfinite(loss_value):
            print("Loss is {}, stopping training".format(loss_value))
            sys.exit(1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        metric_logger.update(loss=loss_value)
    return {k: sum(v) / len(v) for k, v in metric_logger.meters.items()}

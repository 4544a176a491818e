"""DeiT's `engine.py`: the training loop of the script beside it, and the
evaluation it runs before training and after each epoch (through the same
`log_every`)."""
import math
import sys

import torch
import torch.nn.functional as F

import utils


def train_one_epoch(model, data_loader, optimizer, epoch, max_norm=0):
    model.train()
    metric_logger = utils.MetricLogger(delimiter="  ")
    metric_logger.add_meter('lr', utils.SmoothedValue(fmt='{global_avg:.6f}'))
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
        metric_logger.update(lr=optimizer.param_groups[0]["lr"])
    print("Averaged stats:", metric_logger)
    return {k: meter.global_avg for k, meter in metric_logger.meters.items()}


@torch.no_grad()
def evaluate(data_loader, model):
    metric_logger = utils.MetricLogger(delimiter="  ")
    model.eval()
    for images, target in metric_logger.log_every(data_loader, 2, 'Test:'):
        output = model(images)
        loss = F.cross_entropy(output, target)
        acc1 = (output.argmax(1) == target).float().mean() * 100
        metric_logger.update(loss=loss.item())
        metric_logger.meters['acc1'].update(acc1.item(), n=images.shape[0])
    return {k: meter.global_avg for k, meter in metric_logger.meters.items()}

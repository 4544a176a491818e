import torch.nn.functional as F

import utils


def train_one_epoch(model, data_loader, optimizer, epoch):
    metric_logger = utils.MetricLogger(delimiter="  ")
    header = 'Epoch: [{}]'.format(epoch)
    print_freq = 10
    for samples, targets in metric_logger.log_every(data_loader, print_freq, header):
        loss = F.cross_entropy(model(samples), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        metric_logger.update(loss=loss.item())
    return metric_logger.meters


def train_some(model, data_loader, optimizer, epoch):
    metric_logger = utils.MetricLogger(delimiter="  ")
    for samples, targets in metric_logger.log_some(data_loader, 10):
        loss = F.cross_entropy(model(samples), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        metric_logger.update(loss=loss.item())

"""The helpers of DeiT's, MAE's and DETR's `util/misc.py`: a metric logger
whose `log_every` passes the loader's batches on, and `save_on_master`,
which saves on the main process only."""
import time

import torch


class MetricLogger:
    def __init__(self, delimiter="\t"):
        self.delimiter = delimiter
        self.meters = {}

    def update(self, **kwargs):
        for k, v in kwargs.items():
            self.meters.setdefault(k, []).append(v)

    def log_every(self, iterable, print_freq, header=None):
        i = 0
        start = time.time()
        for obj in iterable:
            yield obj
            if i % print_freq == 0 or i == len(iterable) - 1:
                print(header, i, "%.3fs" % (time.time() - start))
            i += 1


def is_main_process():
    return True


def save_on_master(*args, **kwargs):
    if is_main_process():
        torch.save(*args, **kwargs)

"""The helpers of DeiT's, MAE's and DETR's `util/misc.py`: a metric logger
whose `log_every` passes the loader's batches on and prints the meters the
loop consuming it updates, and `save_on_master`, which saves on the main
process only."""
import time
from collections import defaultdict

import torch


class SmoothedValue:
    def __init__(self, fmt="{global_avg:.4f}"):
        self.total = 0.0
        self.count = 0
        self.fmt = fmt

    def update(self, value, n=1):
        self.count += n
        self.total += value * n

    @property
    def global_avg(self):
        return self.total / self.count

    def __str__(self):
        return self.fmt.format(global_avg=self.global_avg)


class MetricLogger:
    def __init__(self, delimiter="\t"):
        self.delimiter = delimiter
        self.meters = defaultdict(SmoothedValue)

    def update(self, **kwargs):
        for k, v in kwargs.items():
            self.meters[k].update(v)

    def add_meter(self, name, meter):
        self.meters[name] = meter

    def __str__(self):
        return self.delimiter.join(
            "{}: {}".format(name, str(meter))
            for name, meter in self.meters.items())

    def log_every(self, iterable, print_freq, header=None):
        i = 0
        start = time.time()
        for obj in iterable:
            yield obj
            # The consumer updated the meters: a fast-forward that skips
            # its body must skip this too (ZeroDivisionError otherwise).
            if i % print_freq == 0 or i == len(iterable) - 1:
                print(header, i, str(self), "%.3fs" % (time.time() - start))
            i += 1


def is_main_process():
    return True


def save_on_master(*args, **kwargs):
    if is_main_process():
        torch.save(*args, **kwargs)

"""A metric logger shaped like DeiT's, DETR's and MAE's `MetricLogger`:
`log_every` is a generator that passes the loader's items through, timing
and printing around each `yield` (jit_engine/train.py). Every value it is
given is also kept in this module's HISTORY, which the script saves: a
restart must restore a global of a module the boundary is not in."""
import time
from collections import defaultdict, deque

HISTORY = []


class SmoothedValue:
    def __init__(self, window_size=20):
        self.deque = deque(maxlen=window_size)
        self.total = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.deque.append(value)
        self.count += n
        self.total += value * n

    @property
    def avg(self):
        return sum(self.deque) / max(len(self.deque), 1)


class MetricLogger:
    def __init__(self, delimiter="\t"):
        self.meters = defaultdict(SmoothedValue)
        self.delimiter = delimiter

    def update(self, **kwargs):
        for k, v in kwargs.items():
            self.meters[k].update(v)
            HISTORY.append(v)

    def __str__(self):
        return self.delimiter.join(
            "%s: %.4f" % (name, meter.avg) for name, meter in self.meters.items())

    def log_every(self, iterable, print_freq, header=None):
        i = 0
        start = time.time()
        for obj in iterable:
            yield obj
            if i % print_freq == 0 or i == len(iterable) - 1:
                print("%s [%d/%d] %s (%.3f s)" % (header, i, len(iterable), self,
                                                  time.time() - start))
            i += 1

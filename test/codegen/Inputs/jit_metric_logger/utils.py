import time


class MetricLogger:
    def __init__(self, delimiter="\t"):
        self.delimiter = delimiter
        self.meters = {}

    def update(self, **kwargs):
        self.meters.update(kwargs)

    def log_every(self, iterable, print_freq, header=None):
        i = 0
        start = time.time()
        for obj in iterable:
            yield obj
            if i % print_freq == 0:
                print(header, i, self.meters, time.time() - start)
            i += 1

    def log_some(self, iterable, print_freq, header=None):
        i = 0
        for obj in iterable:
            if i > 3:
                break
            yield obj
            i += 1


class EpochSampler:
    def __init__(self, n):
        self.n = n
        self.epoch = 0

    def set_epoch(self, epoch):
        self.epoch = epoch

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        return self.n

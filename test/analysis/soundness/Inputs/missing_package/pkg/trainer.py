import torch.nn as nn

# A git submodule not checked out: pkg/sync_batchnorm/ is not there.
from pkg.sync_batchnorm import DataParallelWithCallback


class Trainer:
    def __init__(self):
        self.model = DataParallelWithCallback(nn.Linear(4, 4))

    def step(self, x):
        return self.model(x)

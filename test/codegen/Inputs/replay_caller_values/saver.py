"""A checkpoint saver shaped like timm's: `_save` builds the state from
`self.model`, `self.optimizer` and the metric it is given; `save_checkpoint`
returns the best metric and its epoch after saving."""
import os

import torch


class Saver:
    def __init__(self, model, optimizer, path):
        self.model = model
        self.optimizer = optimizer
        self.path = path
        self.best = None
        self.best_epoch = None

    def _save(self, path, epoch, metric=None):
        state = {'epoch': epoch, 'state_dict': self.model.state_dict(),
                 'optimizer': self.optimizer.state_dict()}
        if metric is not None:
            state['metric'] = metric
        torch.save(state, path)

    def save_checkpoint(self, epoch, metric=None):
        self._save(self.path + '.tmp', epoch, metric)
        os.replace(self.path + '.tmp', self.path)
        if self.best is None or metric < self.best:
            self.best, self.best_epoch = metric, epoch
        return self.best, self.best_epoch

    def save_recovery(self, epoch, step):
        self._save(self.path + '.recovery', epoch)

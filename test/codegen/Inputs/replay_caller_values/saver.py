"""A checkpoint saver shaped like timm's: `_save` builds the state from
`self.model`, `self.optimizer` and the metric it is given; `save_checkpoint`
renames the file, updates the best metric and returns it with its epoch
after saving (SAVER_DIES_AT=EPOCH: the process dies there, after the
rename, before the call returns; SAVER_SHRINKS_AT=EPOCH: it changes the
model after the save)."""
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
        if os.environ.get("SAVER_DIES_AT") == str(epoch):
            os._exit(9)  # killed after the save, before it returns
        if os.environ.get("SAVER_SHRINKS_AT") == str(epoch):
            with torch.no_grad():  # the model the checkpoint holds is not
                self.model[0].weight.mul_(0.5)  # the one the run goes on with
        if self.best is None or metric < self.best:
            self.best, self.best_epoch = metric, epoch
        return self.best, self.best_epoch

    def save_recovery(self, epoch, step):
        self._save(self.path + '.recovery', epoch)

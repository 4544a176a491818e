"""A checkpoint saver in the shape of timm's CheckpointSaver (written for
detc's tests, not copied): `_save` builds the state from `self.model` and
`self.optimizer` and writes it under a temporary name; the two ways in,
`save_checkpoint` (each epoch, with a metric, copying the best and
returning the best metric and its epoch) and
`save_recovery` (every few steps), rename it to the checkpoint's name."""
import os
import shutil

import torch


class CheckpointSaver:
    def __init__(self, model, optimizer, path):
        self.model = model
        self.optimizer = optimizer
        self.path = path
        self.best_metric = None
        self.best_epoch = None

    def _save(self, save_path, epoch, metric=None):
        save_state = {
            'epoch': epoch,
            'arch': type(self.model).__name__.lower(),
            'optimizer': self.optimizer.state_dict(),
            'version': 2,
        }
        save_state['state_dict'] = self.model.state_dict()
        if metric is not None:
            save_state['metric'] = metric
        torch.save(save_state, save_path)

    def save_checkpoint(self, epoch, metric=None):
        tmp_save_path = self.path + '.tmp'
        self._save(tmp_save_path, epoch, metric)
        os.replace(tmp_save_path, self.path)
        if self.best_metric is None or metric < self.best_metric:
            self.best_metric = metric
            self.best_epoch = epoch
            shutil.copyfile(self.path, self.path + '.best')
        return self.best_metric, self.best_epoch

    def save_recovery(self, epoch, batch_idx=0):
        tmp_save_path = self.path + '.recovery_tmp'
        self._save(tmp_save_path, epoch)
        os.replace(tmp_save_path, self.path)

"""A patience rule in the shape of early-stopping-pytorch's EarlyStopping,
which many training scripts copy or pip-install: an object the training
loop calls each epoch with the validation loss and the model; its
`__call__` keeps the best loss and a patience counter and, on an
improvement, has its own method save the model's state dict to the path it
was given."""
import math

import torch


class StopWhenStale:
    def __init__(self, patience=3, path='best.pt', say=print):
        self.patience = patience
        self.path = path
        self.say = say
        self.best = None
        self.stale = 0
        self.should_stop = False

    def __call__(self, loss, model):
        if math.isnan(loss):
            return
        if self.best is None or loss < self.best:
            self.best = loss
            self.stale = 0
            self.keep(loss, model)
        else:
            self.stale += 1
            self.say('no better for %d epoch(s)' % self.stale)
            if self.stale >= self.patience:
                self.should_stop = True

    def keep(self, loss, model):
        self.say('validation loss %.5f: saving the model' % loss)
        torch.save(model.state_dict(), self.path)

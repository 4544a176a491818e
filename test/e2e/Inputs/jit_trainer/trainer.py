"""A Trainer shaped like minGPT's (issue 41): it builds its own loader
over an endless RandomSampler (replacement=True, num_samples=int(1e10)),
imports DataLoader from torch.utils.data.dataloader, keeps an iterator
across its `while True` loop, counts iterations on itself and calls the
callbacks the script registered. With --jit-checkpoint the boundary goes
into `run` (this module is edited); the Trainer is saved field by field
(its callbacks are the setup's), and the sampler's order is made again
from what it started from.
"""
from collections import defaultdict

import torch
from torch.utils.data.dataloader import DataLoader


class Trainer:
    def __init__(self, model, dataset, max_iters, lr, batch_size=8,
                 workers=0):
        self.model = model
        self.dataset = dataset
        self.max_iters = max_iters
        self.batch_size = batch_size
        self.workers = workers
        self.callbacks = defaultdict(list)
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.iter_num = 0
        self.loss = None

    def add_callback(self, event, callback):
        self.callbacks[event].append(callback)

    def trigger_callbacks(self, event):
        for callback in self.callbacks.get(event, []):
            callback(self)

    def run(self):
        loader = DataLoader(
            self.dataset,
            sampler=torch.utils.data.RandomSampler(
                self.dataset, replacement=True, num_samples=int(1e10)),
            shuffle=False, batch_size=self.batch_size,
            num_workers=self.workers)
        self.model.train()
        data_iter = iter(loader)
        while True:
            try:
                x, y = next(data_iter)
            except StopIteration:
                data_iter = iter(loader)
                x, y = next(data_iter)
            logits = self.model(x)
            self.loss = torch.nn.functional.cross_entropy(logits, y)
            self.model.zero_grad(set_to_none=True)
            self.loss.backward()
            self.optimizer.step()
            self.trigger_callbacks("on_batch_end")
            self.iter_num += 1
            if self.iter_num >= self.max_iters:
                break

# Callbacks kept in a `collections.defaultdict(list)` and run through
# `self.callbacks.get(event, [])` (minGPT's Trainer): the dict's `get`
# was a library method of unknown result, so each callback was "may draw:
# 'callback' calls code detc could not read" and what it draws (minGPT
# samples text with torch.multinomial every 500 iterations, inside the
# training loop) was not found. A library dict (table flag `mapping`:
# defaultdict, OrderedDict) has a dict's methods.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK: library_mapping_methods.py:[[@LINE+37]]:15: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-NOT: may draw
# CHECK: 1 warning(s)
from collections import defaultdict

import torch
from torch.utils.data import DataLoader, TensorDataset


class Trainer:
    def __init__(self, model, data):
        self.model = model
        self.data = data
        self.callbacks = defaultdict(list)
        self.iter_num = 0

    def set_callback(self, event, callback):
        self.callbacks[event] = [callback]

    def trigger(self, event):
        for callback in self.callbacks.get(event, []):
            callback(self)

    def run(self):
        opt = torch.optim.SGD(self.model.parameters(), lr=0.1)
        for (x,) in DataLoader(self.data, batch_size=2):
            loss = self.model(x).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            self.iter_num += 1
            self.trigger("on_batch_end")


def sample(trainer):
    if trainer.iter_num % 500 == 0:
        probs = torch.softmax(trainer.model(torch.zeros(1, 4)), -1)
        print(torch.multinomial(probs, 1))


trainer = Trainer(torch.nn.Linear(4, 3), TensorDataset(torch.randn(8, 4)))
trainer.set_callback("on_batch_end", sample)
trainer.run()

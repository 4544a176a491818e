# A training loop over an iterator of code detc cannot read (the
# attention-is-all-you-need repository iterates torchtext's BucketIterator,
# often not installed): no loader detc knows, so no region was found and
# the model's dropouts were silent ("0 warning(s)"). Sound by default: a
# loop over such an iterator whose own body trains (calls `backward`) is
# a loop over batches, and what makes each of its examples is code detc
# cannot read (a may-draw of its own). The evaluation loop over the same
# kind of iterator does not train, and stays a plain loop.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s
# CHECK: unread_iterator_training.py:[[@LINE+16]]:24: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}unread_iterator_training.py:[[@LINE+24]]:5
# CHECK-NOT: warning: generator
# CHECK: unread_iterator_training.py:[[@LINE+22]]:23: warning: may draw: 'data' calls code detc could not read, inside the per-example data-parallel region
# CHECK: note: 'data' is the examples of a pipeline of module 'nlpkit', which detc could not find and no API table models
# CHECK: 2 warning(s)
import torch
import torch.nn as nn
from tqdm import tqdm

from nlpkit.data import BucketIterator


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        return self.dropout(self.fc(x))


def train_epoch(model, data, optimizer):
    model.train()
    for batch in tqdm(data, mininterval=2):
        optimizer.zero_grad()
        loss = model(batch.src).sum()
        loss.backward()
        optimizer.step()


def eval_epoch(model, data):
    model.eval()
    with torch.no_grad():
        for batch in tqdm(data):
            model(batch.src)


model = Tagger()
optimizer = torch.optim.Adam(model.parameters())
train_data = BucketIterator("train.pkl", batch_size=32, train=True)
valid_data = BucketIterator("valid.pkl", batch_size=32)
for epoch in range(3):
    train_epoch(model, train_data, optimizer)
    eval_epoch(model, valid_data)

"""A loop over an attribute of an object whose other fields the loops
change, in the shape of the PyTorch DDP tutorial's Trainer
(`for source, targets in self.train_data:` in `_run_epoch`, the optimizer
stepping `self.model` in `_run_batch`): the restart evaluates
`self.train_data` again before restoring anything, and the loops change
`self.model` and `self.optimizer`, not it. Refused before ("the loop
iterates over 'self', which the loops change"; the session-58 binary).
Still refused: a loop whose loader the loops rebind (`self.train_data =
...` each epoch), and a method's result over an object the loops change
(the method may read any field). The restarts of this shape are checked
bit for bit by e2e-jit-failures-epoch-trainer."""
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.py 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# RUN: sed 's/^                pass  # REBIND$/                self.train_data = DataLoader(self.train_data.dataset, batch_size=4)/' %s > %t.rebind.py
# RUN: not detc transform %t.rebind.py --emit-python --jit-checkpoint -o %t.out.py 2>&1 | FileCheck %s --check-prefix=REBIND
# RUN: sed 's/in self.train_data:$/in self.batches():/' %s > %t.method.py
# RUN: not detc transform %t.method.py --emit-python --jit-checkpoint -o %t.out.py 2>&1 | FileCheck %s --check-prefix=METHOD
# DIAG-NOT: error
# CHECK: for source, targets in _detc_rt.hints.loop({{[0-9]+}}, 1, self.train_data):
# CHECK: _detc_rt.jit.boundary(
# REBIND: error: cannot restart at the chosen hint: the loop at line {{[0-9]+}} iterates over 'self.train_data', which the loops change
# METHOD: error: cannot restart at the chosen hint: the loop at line {{[0-9]+}} iterates over 'self', which the loops change
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Trainer:
    def __init__(self, model, train_data, optimizer):
        self.model = model
        self.train_data = train_data
        self.optimizer = optimizer

    def batches(self):
        return self.train_data

    def _run_batch(self, source, targets):
        self.optimizer.zero_grad()
        loss = F.cross_entropy(self.model(source), targets)
        loss.backward()
        self.optimizer.step()

    def _run_epoch(self, epoch):
        for source, targets in self.train_data:
            self._run_batch(source, targets)

    def train(self, max_epochs):
        for epoch in range(max_epochs):
            self._run_epoch(epoch)
            if epoch % 2 == 0:
                pass  # REBIND


def main():
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(16, 4), torch.arange(16) % 2)
    model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.3),
                                torch.nn.Linear(8, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    Trainer(model, DataLoader(data, batch_size=4, shuffle=True, num_workers=2),
            optimizer).train(3)


if __name__ == "__main__":
    main()

# Idiom 6 (issue 17): library-style code with no entry point. A training
# package's module defines a dataset, a trainer and train_model(); another
# project calls them, the module body runs nothing. detc analyses every
# public function and method as an entry called with unknown arguments
# (and says so); --entry=NAME picks one; a name the script does not define
# is an error. _private helpers and dunders are not entries.
# RUN: detc analyze %s 2>&1 | FileCheck %s --check-prefix=ALL
# RUN: detc analyze %s --entry=Trainer.fit 2>&1 | FileCheck %s --check-prefix=FIT
# RUN: detc analyze %s --entry=evaluate 2>&1 | FileCheck %s --check-prefix=EVAL
# RUN: not detc analyze %s --entry=Trainer.nope 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: detc analyze %s --format=json | FileCheck %s --check-prefix=JSON
# ALL: library_entry.py: note: the module body runs none of the script's functions; analysed every public function and method as an entry called with unknown arguments (pick with --entry=NAME): Trainer.fit, train_model, evaluate
# ALL: library_entry.py:[[@LINE+26]]:20: warning: generator 'np.random' (global) is used inside the per-example data-parallel region that starts at {{.*}}library_entry.py:[[@LINE+36]]:13
# ALL: 1 warning(s); unsafe generators (ERR): 'np.random' (global)
# FIT: note: analysed as entries called with unknown arguments: Trainer.fit{{$}}
# FIT: library_entry.py:[[@LINE+23]]:20: warning: generator 'np.random' (global)
# EVAL: note: analysed as entries called with unknown arguments: evaluate{{$}}
# EVAL: 0 warning(s); unsafe generators (ERR): none
# BAD: detc: error: {{.*}}library_entry.py: --entry=Trainer.nope: the script defines no function or method of that name
# JSON: "entries": [
# JSON-NEXT: "Trainer.fit",
# JSON-NEXT: "train_model",
# JSON-NEXT: "evaluate"
# JSON: "libraryEntries": true
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Jitter(Dataset):
    def __init__(self, base):
        self.base = base

    def __len__(self):
        return len(self.base)

    def __getitem__(self, i):
        x, y = self.base[i]
        return x + np.random.normal(0, 0.1, x.shape), y


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def fit(self, loader, epochs):
        for epoch in range(epochs):
            for x, y in loader:
                self.opt.zero_grad()
                loss = torch.nn.functional.mse_loss(self.model(x), y)
                loss.backward()
                self.opt.step()

    def _log(self, msg):
        print(msg)


def train_model(args, model, base):
    loader = DataLoader(Jitter(base), batch_size=32, shuffle=True,
                        num_workers=args.workers)
    Trainer(model, args.lr).fit(loader, args.epochs)


def evaluate(model, base):
    loader = DataLoader(base, batch_size=64)
    model.eval()
    with torch.no_grad():
        return sum(float(model(x).sum()) for x, _ in loader)

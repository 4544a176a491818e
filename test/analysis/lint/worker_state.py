# detc-worker-state: a dataset that carries state from one example to the
# next (hifi-gan's MelDataset: the waveform it loaded last and a countdown
# of how often to serve it again). Each DataLoader worker holds its own
# copy of the dataset, so an example depends on the worker that made it:
# the data change with num_workers and on resume. Both attributes are
# found, through a method of the same instance (`self.load_next`).
# Silent: a memo keyed by the index (`self.memo[i] = ...`), a file handle
# opened lazily per worker (`if self.h5 is None`), an attribute written
# before every read in the same call (`self.last_index`), one only read
# (`self.root`), and the fixed class (a pure function of the index).
# RUN: not detc analyze %s --werror 2>&1 | FileCheck %s
# RUN: sed -e 's/^        if self.reuse_left == 0:/        self.load_next(i)\n&/' %s > %t.fixed.py
# RUN: detc analyze %t.fixed.py --werror 2>&1 | FileCheck %s --check-prefix=FIXED
# FIXED: 0 warning(s)
import torch
from torch.utils.data import DataLoader, Dataset


class Clips(Dataset):
    def __init__(self, root, n, reuse=2):
        self.root = root
        self.n = n
        self.reuse = reuse
        self.cached = None
        self.reuse_left = 0
        self.memo = {}
        self.h5 = None
        self.last_index = -1

    def __len__(self):
        return self.n

    def load(self, i):
        return torch.full((4,), float(i))

    def load_next(self, i):
        # CHECK: worker_state.py:[[#@LINE+4]]:23: warning: `self.cached` of `Clips` is rebound here while a DataLoader worker makes an example (or a batch), and the next one reads it: each worker has its own copy of the object, so what it makes depends on which worker made it and what that worker made before — the data change with num_workers, and a resumed run's fresh workers do not see what the uninterrupted run saw; make each example from its index alone (load what it needs, or keep a cache keyed by the index) [detc-worker-state]
        # CHECK: worker_state.py:[[#@LINE+17]]:9: note: read here before this call writes it
        # CHECK: worker_state.py:[[#@LINE+3]]:9: warning: `self.reuse_left` of `Clips`
        # CHECK: worker_state.py:[[#@LINE+9]]:9: note: read here before this call writes it
        self.cached = self.load(i)
        self.reuse_left = self.reuse

    def __getitem__(self, i):
        if self.h5 is None:
            self.h5 = open(self.root)
        self.last_index = i
        print(self.last_index)
        if self.reuse_left == 0:
            self.load_next(i)
        else:
            self.reuse_left -= 1
        if i not in self.memo:
            self.memo[i] = self.load(i)
        return self.cached + self.memo[i], i % 2
# CHECK: 2 warning(s)


def main():
    loader = DataLoader(Clips("/dev/null", 16), batch_size=4, shuffle=True,
                        num_workers=2)
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()


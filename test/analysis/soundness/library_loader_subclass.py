# A subclass of DataLoader that an installed library defines (timm's
# MultiEpochsDataLoader shape; the library is Inputs/site-packages'
# fakeloaders), constructed by the script: read from the library's source,
# it is a loader as the program's own subclasses are — the loop over it
# has a per-example region (the dataset's draw is found), and the
# transform keys it with the library's class. It was a plain call: nothing
# reported, the loader left unkeyed, and the weights differed with the
# number of workers. The transformed script gives the same weights with 0
# and 2 workers.
# (The transform reads the library's summary from the cache the analysis
# wrote: the class's bases are kept there.)
# RUN: rm -rf %t.cache
# RUN: env PYTHONPATH=%S/Inputs/site-packages DETC_CACHE_DIR=%t.cache \
# RUN:   detc analyze --python %python %s 2>&1 | FileCheck %s
# RUN: env PYTHONPATH=%S/Inputs/site-packages DETC_CACHE_DIR=%t.cache \
# RUN:   detc transform --emit-python --python %python %s -o %t.py
# RUN: FileCheck %s --check-prefix=KEYED < %t.py
# RUN: env PYTHONPATH=%S/Inputs/site-packages:%detc_runtime DETC_QUIET=1 \
# RUN:   %python %t.py 0 > %t.w0
# RUN: env PYTHONPATH=%S/Inputs/site-packages:%detc_runtime DETC_QUIET=1 \
# RUN:   %python %t.py 2 > %t.w2
# RUN: cmp %t.w0 %t.w2
# Without the library's source (--python none, or a library not installed
# where detc runs), code detc cannot read that is given a dataset may make
# a loader of it: the dataset's draw is still found (it was not: nothing
# was reported), the unread class is a may-draw of its own, and at run
# time the library's subclass is keyed where it constructs its base
# (key_imported_loaders).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --check-prefix=NONE
# NONE: library_loader_subclass.py:{{[0-9]+}}:44: warning: generator 'random' (global) is used inside the per-example data-parallel region
# NONE: warning: may draw: 'PersistentLoader' calls code detc could not read
# NONE: 2 warning(s)
# RUN: detc transform --emit-python --python none %s -o %t.none.py
# RUN: env PYTHONPATH=%S/Inputs/site-packages:%detc_runtime DETC_QUIET=1 \
# RUN:   %python %t.none.py 0 > %t.none.w0
# RUN: env PYTHONPATH=%S/Inputs/site-packages:%detc_runtime DETC_QUIET=1 \
# RUN:   %python %t.none.py 2 > %t.none.w2
# RUN: cmp %t.none.w0 %t.none.w2
# (The import of the library's class was also reported as one detc cannot
# resolve: a question about a namespace package forgot the answer.)
# CHECK-NOT: cannot resolve import
# KEYED: loader = _detc_rt.keyed_loader({{.*}}loader_class=PersistentLoader)(Noisy(), batch_size=8
import random
import sys

import torch
from torch.utils.data import Dataset

from fakeloaders import PersistentLoader


class Noisy(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        # CHECK: library_loader_subclass.py:[[@LINE+1]]:44: warning: generator 'random' (global) is used inside the per-example data-parallel region that starts at {{.*}}library_loader_subclass.py:[[@LINE+11]]:5
        return torch.full((3,), float(i) + random.random())


torch.manual_seed(0)
random.seed(0)
loader = PersistentLoader(Noisy(), batch_size=8, shuffle=True,
                          num_workers=int(sys.argv[1]))
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(2):
    for x in loader:
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
print(model.weight.tolist(), model.bias.tolist())
# CHECK: 1 warning(s)

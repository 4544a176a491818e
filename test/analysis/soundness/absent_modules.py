# Library code that imports a module the interpreter does not have at all
# (six's Python 2 branch: `import StringIO; BytesIO = StringIO.StringIO`;
# `import cPickle` before falling back to pickle) cannot run past that
# import: the alternative is dead, not "code detc could not read". A
# value of the other alternative is what it names (io.BytesIO: its
# methods draw nothing). clovaai/deep-text-recognition-benchmark's LMDB
# dataset had three may-draws from `six.BytesIO()`, `buf.write`,
# `buf.seek`. A module built into the interpreter (no source) still may
# draw.
# RUN: rm -rf %t.cache
# RUN: env PYTHONPATH=%S/Inputs/site-packages DETC_CACHE_DIR=%t.cache \
# RUN:   detc analyze --python %python %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: absent_modules.py:[[@LINE+17]]:9: warning: may draw: 'fakecompat.spam' calls code detc could not read
# CHECK: note: 'fakecompat.spam' is library code that detc followed until 'xxsubtype.spamdict'
# CHECK: 1 warning(s)
import torch
from torch.utils.data import DataLoader, Dataset

import fakecompat


class Records(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        buf = fakecompat.BytesIO()
        buf.write(fakecompat.dumps(i))
        buf.seek(0)
        fakecompat.spam()
        return torch.zeros(2)


torch.manual_seed(0)
for x in DataLoader(Records(), batch_size=2, num_workers=2):
    print(x.sum())

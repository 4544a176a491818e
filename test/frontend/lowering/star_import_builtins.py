# `from random import *` binds random's own names, not `print`, `set` or
# `super`: a builtin is rebound by a star import only where a table line
# names it in the module (numpy.random's `bytes` is one, a draw). The
# wildcard `random.*` claimed every name, so graykode/nlp-tutorial's BERT
# had its `print` in the training loop and its modules' `super()` reported
# as draws from random's generator. A name both modules have is the last
# star import's (numpy's `random`).
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: warning:
# CHECK: star_import_builtins.py:[[@LINE+28]]:12: warning: generator 'np.random' (global) is used inside the per-batch
# CHECK-NOT: warning:
# CHECK: star_import_builtins.py:[[@LINE+27]]:9: warning: generator 'random' (global) is used inside the per-batch
# CHECK-NOT: warning:
# CHECK: star_import_builtins.py:[[@LINE+26]]:13: warning: generator 'np.random' (global) is used inside the per-batch
# CHECK-NOT: warning:
# CHECK: 3 warning(s)
from random import *
from numpy.random import *
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.randn(8, 4), batch_size=2)
for x in loader:
    seen = set(range(3))
    print(len(seen), list(enumerate(seen)))
    keep = random() < 0.5
    k = randrange(3)
    noise = bytes(4)
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

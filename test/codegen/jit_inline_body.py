# --jit-checkpoint on a training loop whose body is on its header's line
# (`for x, y in loader: step(x, y)`): there is no line to put the
# minibatch boundary before, so detc first moves the body under the header
# and places the boundary there; the report speaks of the user's lines.
# RUN: detc transform %s --emit-python --jit-checkpoint -o %t.py 2>&1 | FileCheck %s --allow-empty --check-prefix=ERR
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" %t.py
# ERR-NOT: error
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(4)
loader = DataLoader(TensorDataset(torch.randn(32, 6), torch.arange(32) % 3),
                    batch_size=8, shuffle=True)
net = nn.Sequential(nn.Linear(6, 16), nn.Dropout(0.3), nn.Linear(16, 3))
opt = torch.optim.SGD(net.parameters(), lr=0.05)


def step(x, y):
    loss = F.cross_entropy(net(x), y)
    opt.zero_grad(); loss.backward(); opt.step()


for epoch in range(2):
    for x, y in loader: step(x, y)
# CHECK: {{^}}    opt.zero_grad(); loss.backward(); _detc_rt.jit.step(opt.step)()
# CHECK: {{^}}    for x, y in _detc_rt.hints.loop([[SITE:[0-9]+]], 1, loader):
# CHECK-NEXT: {{^}}        _detc_rt.jit.boundary([[SITE]], {{.*}}name="_checkpoint")("detc-jit")
# CHECK: {{^}}        step(x, y)  # detc: a statement of a shared line, on a line of its own

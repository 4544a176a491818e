# A call whose result is None assigned to a name (`z = loss.backward()`,
# as yolov5's profiler writes `_ = (...).sum().backward()`): the target is
# defined from nothing. It was a copy of no variable, which the IR
# verifier rejected: an internal error on every such script.
# RUN: detc %s | FileCheck %s
# RUN: detc analyze %s | FileCheck %s --check-prefix=LINT
# RUN: detc transform --emit-python %s -o %t.py
# RUN: python3 -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" %t.py
import torch
from torch import nn

# LINT: call_results.py:[[@LINE+1]]:40: warning: generator 'torch' (global) is used inside the per-batch
model = nn.Sequential(nn.Linear(4, 2), nn.Dropout(0.1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.utils.data.TensorDataset(torch.randn(16, 4), torch.randn(16, 2))
loader = torch.utils.data.DataLoader(data, batch_size=4, num_workers=2)
for x, y in loader:
    opt.zero_grad()
    out = model(x)
    # CHECK: detc.grad updates ["@model"] uses ["@out", "@y"]
    # CHECK-NEXT: detc.stmt "assign" defs ["@z"]{{$}}
    z = ((out - y) ** 2).mean().backward()
    # CHECK-NEXT: detc.stmt "assign" defs ["@_"] uses ["@z", "@out", "@y"]
    _ = (out if z is None else y).sum()
    opt.step()
# CHECK: detc.stmt "expr" uses ["@z"]
print(z)
# LINT: 1 warning(s)

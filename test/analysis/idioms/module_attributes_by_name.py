# Layers set by name: `self.add_module(name, layer)` (SwAV's prototype
# heads, `"prototypes" + str(i)`), `setattr(self, name, layer)`, read back
# as an attribute or by `getattr` with the same kind of name. The
# attribute `extra` set by add_module was silent (its dropout missed); the
# heads read by a computed getattr were "may draw: calls code detc could
# not read". A store under a computed name with a constant head reaches
# every read whose name may start with it. A name the source does not
# show at all (a parameter's) reaches reads by a computed name and
# iteration, not every attribute (timm converts every child of a model
# that way), and a `setattr` with it is reported as a construct detc
# cannot see.
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s
# CHECK-DAG: module_attributes_by_name.py:[[@LINE+22]]:13: warning: 'setattr' changes the program in ways detc cannot see
# CHECK-DAG: module_attributes_by_name.py:[[@LINE+16]]:46: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-DAG: module_attributes_by_name.py:[[@LINE+16]]:34: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-DAG: module_attributes_by_name.py:[[@LINE+16]]:37: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-DAG: module_attributes_by_name.py:[[@LINE+18]]:33: warning: generator 'torch' (global) is used inside the per-batch data-parallel region
# CHECK-NOT: may draw
# CHECK: 4 warning(s)
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Heads(nn.Module):
    def __init__(self, n, names):
        super().__init__()
        self.n = n
        for i in range(n):
            self.add_module("head" + str(i), nn.Dropout(0.5))
        self.add_module("extra", nn.Dropout(0.1))
        setattr(self, "gate%d" % n, nn.Dropout(0.2))
        self.names = names
        for name in names:
            setattr(self, name, nn.Dropout(0.3))
        self.plain = nn.Linear(4, 4)

    def forward(self, x):
        out = [getattr(self, "head" + str(i))(x) for i in range(self.n)]
        out.append(self.extra(x))
        out.append(getattr(self, "gate%d" % self.n)(x))
        out.append(self.plain(x))
        for name in self.names:
            out.append(getattr(self, name)(x))
        return sum(out)


model = Heads(2, ["late"])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2)
for (x,) in loader:
    loss = model(x).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()

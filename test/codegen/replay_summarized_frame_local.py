# A block's forward reads a local that only one branch binds
# (`out if self.eq else x`, WideResNet's BasicBlock in RepDistiller), and
# its calls are summarized after the first (here by the small statement
# limit; in a model zoo, by the number of expansions): each summarized call
# is the draws of its code, in a stand-in namespace. The local is a value
# of one call, never defined in that namespace; the session-63 first binary
# kept it live back to the program's start, so the checkpoint "must save
# 'out' (of 'Block::forward')" and got no sidecar.
# RUN: detc transform --python none %s --emit-python --max-statements=1600 -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# DIAG-NOT: detc writes no sidecar
# CHECK: out = _detc_rt.keyed({{[0-9]+}}, {{[0-9]+}}, F.dropout)(out if self.eq else x
# CHECK: _detc_rt.checkpoint([[SITE:[0-9]+]], torch.save, None, loops=("epoch",))({"model": model.state_dict(), "opt": opt.state_dict()}, args.out)
# CHECK: if _detc_rt.restoring([[SITE]]):
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Block(nn.Module):
    def __init__(self, cin, cout, p):
        super().__init__()
        self.eq = cin == cout
        self.p = p
        self.fc = nn.Linear(cin, cout)

    def forward(self, x):
        if not self.eq:
            x = F.relu(x)
        else:
            out = F.relu(x)
        out = F.dropout(out if self.eq else x, p=self.p, training=self.training)
        return self.fc(out)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.b1 = Block(4, 4, 0.1)
        self.b2 = Block(4, 6, 0.1)
        self.b3 = Block(6, 6, 0.1)
        self.b4 = Block(6, 2, 0.1)

    def forward(self, x):
        return self.b4(self.b3(self.b2(self.b1(x))))


parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
args = parser.parse_args()
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(16, 4), torch.randint(0, 2, (16,))),
                    batch_size=4, shuffle=True)
for epoch in range(3):
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, args.out)

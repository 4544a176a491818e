# Functions fast-forward reaches from the training loop: a model class's
# __init__ builds a Dropout whose draws happen in the loop (in the layer's
# forward), but its statements run only at setup: no warning (a model built
# as `Net().to(device)` got "fast-forward runs '__init__' in full"). A helper
# called both before the loop and inside it does run in full, and says so.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
import torch
import torch.nn as nn


class Net(nn.Module):
    # CHECK-NOT: fast-forward runs '__init__'
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.drop(self.fc(x))


# CHECK: replay_callees.py:[[@LINE+1]]:1: warning: fast-forward runs 'scaled' in full: it is also called outside the training loop [detc-replay]
def scaled(x):
    return x * 2
# CHECK-NOT: fast-forward runs '__init__'


model = Net().to(torch.device("cpu"))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = scaled(torch.randn(64, 4))
loader = torch.utils.data.DataLoader(data, batch_size=8, shuffle=True)
for epoch in range(2):
    for x in loader:
        opt.zero_grad()
        model(scaled(x)).sum().backward()
        opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, "c.pt")

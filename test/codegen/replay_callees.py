# Functions fast-forward reaches from the training loop: a model class's
# __init__ builds a Dropout whose draws happen in the loop (in the layer's
# forward), but its statements run only at setup: no warning (a model built
# as `Net().to(device)` got "fast-forward runs '__init__' in full"). A helper
# called both before the loop and inside it runs in full outside the loop
# and is skipped in the loop's calls (`from_nest`, `nest_guard`); it ran in
# full there too before session 64.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s
# RUN: FileCheck %s --check-prefix=OUT < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# CHECK-NOT: fast-forward runs 'scaled' in full
# OUT: {{^}}    return (x * 2) if _detc_rt.nest_guard() else None
# OUT: {{^}}data = scaled(torch.randn(64, 4))
# OUT: {{^}}        if _detc_rt.guard(): model(_detc_rt.from_nest(scaled)(x)).sum().backward()
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

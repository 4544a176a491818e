# A loop over a DataLoader of a dataset built with `transform=`: the
# dataset's transform runs in the fetch the loop header models, which is
# not a call written at the header. The trace wraps only calls written in
# the script (the statement range of the loop ends in a call too, and
# wrapping "from `for` to `optimizer.step`" emitted invalid Python).
# RUN: detc transform %s --emit-python --trace=%t.dir -o %t.py
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# CHECK-LABEL: {{^}}for epoch in range(2):
# CHECK-NOT: forward:loader{{.*}}transform
# CHECK: for x, y in _detc_rt.trace.batches({{[0-9]+}}, loader):  # detc: traced
# CHECK-NEXT: _detc_rt.trace.step({{[0-9]+}}, epoch)
# CHECK-NEXT: loss = _detc_rt.trace.api({{[0-9]+}}, "loss", 'loss', nn.functional.cross_entropy, nn.functional)(_detc_rt.trace.api({{[0-9]+}}, "forward", 'forward:model', model, feeds='crossentropy')(x), y)  # detc: traced
# CHECK: _detc_rt.trace.api({{[0-9]+}}, "step", 'optimizer.step', opt.step, opt)()  # detc: traced
import torch
import torch.nn as nn
import torchvision.transforms as T
from torch.utils.data import DataLoader
from torchvision import datasets

torch.manual_seed(0)
data = datasets.FakeData(64, (3, 8, 8), 2, transform=T.Compose([
    T.RandomHorizontalFlip(), T.ToTensor(), T.Normalize((0.5,), (0.25,))]))
loader = DataLoader(data, batch_size=8, shuffle=True)
model = nn.Sequential(nn.Flatten(), nn.Linear(192, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

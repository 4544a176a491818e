# A loss class the script writes itself is traced as `loss`, as torch's
# are (docs/traincheck.md, "Descriptors by role"): what a backward
# differentiates is the loss, whoever wrote its class; the model's call
# says which loss its result feeds (`focal`), so that bounds on what the
# model returns are scoped by it. A model whose result is not what the
# backward differentiates stays `forward:model`.
# RUN: detc transform %s --emit-python --trace=%t.dir -o %t.py 2>/dev/null
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# CHECK: out = _detc_rt.trace.api({{[0-9]+}}, "forward", 'forward:model', model, feeds='focal')(x)  # detc: traced
# CHECK-NEXT: loss = _detc_rt.trace.api({{[0-9]+}}, "forward", 'loss', criterion)(out, y)  # detc: traced
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class FocalLoss(nn.Module):
    def forward(self, logits, y):
        p = torch.log_softmax(logits, 1).gather(1, y[:, None]).exp()
        return ((1 - p) ** 2 * -p.log()).mean()


model = nn.Linear(4, 3)
criterion = FocalLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = TensorDataset(torch.randn(16, 4), torch.randint(0, 3, (16,)))
for epoch in range(2):
    for x, y in DataLoader(data, batch_size=4):
        opt.zero_grad()
        out = model(x)
        loss = criterion(out, y)
        loss.backward()
        opt.step()

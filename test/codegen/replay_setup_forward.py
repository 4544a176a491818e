# A forward outside any loop, run once in the setup on a tensor of its
# own (RepDistiller's `feat_t, _ = model_t(data, is_feat=True)` on
# `torch.randn(2, 3, 32, 32)`, sizing the distillation head, whose
# attributes the training reads after the checkpoint: its constructor
# re-runs, reading the forward's result): fast-forward runs it again, on
# what it ran on. It is no training step: the
# session-62 first binary refused the sidecar ("fast-forward would run
# the training again"). The training's forward in the batch loop is still
# skipped.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: detc writes no sidecar
# CHECK: {{^}}feat_t = teacher(probe)
# CHECK-NEXT: {{^}}head = Head(feat_t.shape)
# CHECK: if _detc_rt.guard(): loss = F.cross_entropy(head(student(x)), y)
# CHECK: _detc_rt.checkpoint([[SITE:[0-9]+]], torch.save, {"head": lambda: head}, loops=("epoch",))
# CHECK: if _detc_rt.restoring([[SITE]]):
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Head(torch.nn.Module):
    def __init__(self, shape, use_relu=True):
        super().__init__()
        # ConvReg's shape: what it does depends on the sizes it is given.
        if shape[1] > 4:
            self.use_relu = use_relu
        else:
            self.use_relu = False
        self.fc = torch.nn.Linear(shape[1], 3)

    def forward(self, x):
        y = self.fc(x)
        return F.relu(y) if self.use_relu else y


torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.randint(0, 3, (32,))),
                    batch_size=8, shuffle=True)
teacher = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.ReLU())
student = torch.nn.Sequential(torch.nn.Linear(4, 6), torch.nn.Dropout(0.2))
teacher.eval()
probe = torch.randn(2, 4)
feat_t = teacher(probe)
head = Head(feat_t.shape)
opt = torch.optim.SGD(list(student.parameters()) + list(head.parameters()),
                      lr=0.1)
for epoch in range(3):
    for x, y in loader:
        loss = F.cross_entropy(head(student(x)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"student": student.state_dict(), "opt": opt.state_dict()},
               "ckpt.pt")

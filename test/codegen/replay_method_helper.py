# timm's CheckpointSaver: a method builds what it saves from `self.model`
# and `self.optimizer` and is called as `self._save(...)` by another method
# of the same object, held by a module-level global. The checkpoint gets a
# sidecar and a restore through the receiver (`self.model.load_state_dict`);
# the session-66 first binary wrote none ("'saver.model' is saved in a form
# detc cannot load back": a global's attribute path was not visible where
# the restore runs). e2e-kill-resume-shape-renamed resumes such a saver,
# which renames, links and copies the checkpoint next.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: FileCheck %s --check-prefix=ONCE < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: detc writes no sidecar
# What the restore loads through `self` is not saved a second time beside
# the checkpoint under its caller's name (an earlier build of this session
# put the model and optimizer in the sidecar too).
# ONCE-NOT: {{_detc_rt.has_value\("saver[.]}}
# CHECK: {{^ *}}if _detc_rt.restoring([[S:[0-9]+]]):
# CHECK-NEXT: {{^ *}}_detc_ckpt = _detc_rt.user_checkpoint()
# CHECK-NEXT: {{^ *}}self.model.load_state_dict(_detc_ckpt["state_dict"])
# CHECK-NEXT: {{^ *}}self.optimizer.load_state_dict(_detc_ckpt["optimizer"])
# CHECK: {{^ *}}_detc_rt.resumed({"state_dict": lambda: self.model.state_dict(), "optimizer": lambda: self.optimizer.state_dict()})
# CHECK: {{^ *}}if _detc_rt.guard(): os.replace(tmp, self.path)
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class CheckpointSaver:
    def __init__(self, model, optimizer, path):
        self.model = model
        self.optimizer = optimizer
        self.path = path

    def _save(self, save_path, epoch, metric):
        torch.save({"epoch": epoch, "state_dict": self.model.state_dict(),
                    "optimizer": self.optimizer.state_dict(),
                    "metric": metric}, save_path)

    def save_checkpoint(self, epoch, metric):
        tmp = self.path + ".tmp"
        self._save(tmp, epoch, metric)
        os.replace(tmp, self.path)


torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 2))
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
saver = CheckpointSaver(net, optimizer, "ck.pt")
x, y = torch.randn(16, 4), torch.randint(0, 2, (16,))
loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(x, y), batch_size=4, shuffle=True)
for epoch in range(3):
    for xb, yb in loader:
        loss = F.cross_entropy(net(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    saver.save_checkpoint(epoch, -epoch)

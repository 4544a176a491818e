# A save through a helper behind a test only the training decides (DeiT's
# `if max_accuracy < test_stats["acc1"]: utils.save_on_master(...)`): the
# run logs the test's decisions and fast-forward takes them, as for a save
# in the script (replay_logged_tests.py). The session-64 first binary left
# the test to fast-forward, which evaluated it on its untrained model.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: detc writes no sidecar
# CHECK: {{^ *}}test_stats = _detc_rt.from_nest(evaluate)(val_loader, model)
# CHECK-NEXT: {{^ *}}if _detc_rt.decide([[T:[0-9]+]], (max_accuracy < test_stats["acc1"])) if _detc_rt.guard() else _detc_rt.decision([[T]]):
# CHECK-NEXT: {{^ *}}if _detc_rt.guard(): max_accuracy = test_stats["acc1"]
# CHECK-NEXT: {{^ *}}_detc_rt.announce_checkpoint([[S:[0-9]+]],
# CHECK-NEXT: {{^ *}}if _detc_rt.guard(): save_on_master({"model": model.state_dict(), "opt": opt.state_dict()}, "best.pt")
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def save_on_master(*args, **kwargs):
    torch.save(*args, **kwargs)


@torch.no_grad()
def evaluate(loader, model):
    correct = 0
    for x, y in loader:
        correct += (model(x).argmax(1) == y).sum().item()
    return {"acc1": 100.0 * correct / len(loader.dataset)}


train_loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.arange(32) % 2),
                          batch_size=8, shuffle=True)
val_loader = DataLoader(TensorDataset(torch.randn(16, 4), torch.arange(16) % 2),
                        batch_size=8, shuffle=True)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.3), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
print(evaluate(val_loader, model))
max_accuracy = 0.0
for epoch in range(3):
    for x, y in train_loader:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    test_stats = evaluate(val_loader, model)
    if max_accuracy < test_stats["acc1"]:
        max_accuracy = test_stats["acc1"]
        save_on_master({"model": model.state_dict(), "opt": opt.state_dict()}, "best.pt")

# RepDistiller's epoch loop: `state` is built twice, a best dict and a
# regular one, each saved on the next line. Each save saves its own dict
# (the assignment on the straight line before it), not both: the session-
# 59 first binary counted every dict `state` was ever given as saved by
# each save, and refused both sidecars ("'test_acc' is saved in a form
# detc cannot load back", "'best_acc' ..."). A save of a dict built on
# another path (the merge below the `if`) still counts every dict.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: detc writes no sidecar
# CHECK: _detc_rt.checkpoint([[BEST:[0-9]+]], torch.save{{.*}})(state, 'best.pth')
# CHECK-NEXT: if _detc_rt.restoring([[BEST]]):
# CHECK: best_acc = _detc_rt.restore_value(lambda: best_acc, _detc_ckpt['best_acc'])
# CHECK: _detc_rt.checkpoint([[REGULAR:[0-9]+]], torch.save{{.*}})(state, 'ckpt.pth')
# CHECK-NEXT: if _detc_rt.restoring([[REGULAR]]):
# CHECK: test_acc = _detc_rt.restore_value(lambda: test_acc, _detc_ckpt['accuracy'])
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.arange(32) % 2),
                    batch_size=8, shuffle=True, num_workers=2)
model_s = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.3), nn.Linear(8, 2))
optimizer = torch.optim.SGD(model_s.parameters(), lr=0.1)


def validate():
    return sum(p.sum().item() for p in model_s.parameters())


best_acc = 0
for epoch in range(1, 6):
    for x, y in loader:
        optimizer.zero_grad()
        nn.functional.cross_entropy(model_s(x), y).backward()
        optimizer.step()
    test_acc = validate()
    if test_acc > best_acc:
        best_acc = test_acc
        state = {
            'epoch': epoch,
            'model': model_s.state_dict(),
            'best_acc': best_acc,
        }
        torch.save(state, 'best.pth')
    if epoch % 2 == 0:
        state = {
            'epoch': epoch,
            'model': model_s.state_dict(),
            'accuracy': test_acc,
        }
        torch.save(state, 'ckpt.pth')

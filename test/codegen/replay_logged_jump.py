# A test whose `continue` skips the save after it, in pytorch-cifar100's
# shape (`if epoch > 2 and best_acc < acc: save best; continue` before the
# regular save): it decides whether the regular save is reached, and only
# the training decides it. The session-59 first binary evaluated it in
# fast-forward, so the training re-ran on placeholder batches (the resume
# crashed); it is now logged like a test around a save. A loop fast-
# forward skips whole leaves its iterable unevaluated: it reads
# `last_layer`, which a skipped statement assigns (`skippable(...)`
# evaluated it and the resume crashed).
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# RUN: detc analyze --verify %s 2>&1 | FileCheck %s --check-prefix=VERIFY
# DIAG-NOT: detc writes no sidecar
# VERIFY: verify: Needed at {{.*}}replay_logged_jump.py:[[@LINE+39]]:5: {{.*}} the solution satisfies every constraint and is the least
# CHECK-LABEL: {{^}}def train(epoch):
# CHECK: {{^ *}}for batch_index, (images, labels) in enumerate(_detc_rt.batches(train_loader, 2)):
# CHECK-NEXT: {{^ *}}if _detc_rt.guard(): optimizer.zero_grad()
# CHECK: {{^ *}}if _detc_rt.guard(): last_layer = list(net.children())[-1]
# CHECK-NEXT: {{^ *}}for name, para in (last_layer.named_parameters()) if _detc_rt.guard() else ():
# CHECK: {{^ *}}if _detc_rt.decide([[TEST:[0-9]+]], (epoch > 2 and best_acc < acc)) if _detc_rt.guard() else _detc_rt.decision([[TEST]]):
# CHECK: {{^ *}}continue
# CHECK-NEXT: {{^ *}}_detc_rt.announce_checkpoint([[SITE:[0-9]+]],
# CHECK-NEXT: {{^ *}}if _detc_rt.guard(): _detc_rt.checkpoint([[SITE]], torch.save, {"optimizer": lambda: optimizer, "norms": lambda: norms, "best_acc": lambda: best_acc})(net.state_dict(), "regular.pt")
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

train_loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.arange(32) % 2),
                          batch_size=8, shuffle=True, num_workers=2)
net = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.3), nn.Linear(8, 2))
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
norms = []


def train(epoch):
    for batch_index, (images, labels) in enumerate(train_loader):
        optimizer.zero_grad()
        nn.functional.cross_entropy(net(images), labels).backward()
        optimizer.step()
        last_layer = list(net.children())[-1]
        for name, para in last_layer.named_parameters():
            norms.append(para.grad.norm().item())
    return sum(norms[-4:])


best_acc = 0.0
for epoch in range(1, 6):
    acc = train(epoch)
    if epoch > 2 and best_acc < acc:
        torch.save(net.state_dict(), "best.pt")
        best_acc = acc
        continue
    torch.save(net.state_dict(), "regular.pt")

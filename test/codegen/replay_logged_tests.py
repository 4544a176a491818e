# A save behind a test that only the training decides, in pytorch-cifar's
# shape (`test(epoch)` saves when `acc > best_acc`, after a validation
# pass): evaluating the test in fast-forward would need the whole
# training again (the session-58 binary re-ran the training loop on
# placeholder batches: the resume crashed). The run logs the test's
# decisions (`decide`), fast-forward takes them back (`decision`); the
# save is announced on the line before it and skipped in fast-forward,
# so its dict, which reads the accuracy, is never needed there. The
# validation pass goes round on placeholder batches (its loader's epochs
# advance as in the run) with nothing of it run. A cheap test on the way
# to a save (`if epoch % 2 == 0:`) is evaluated as before.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# RUN: detc analyze --verify %s 2>&1 | FileCheck %s --check-prefix=VERIFY
# DIAG-NOT: detc writes no sidecar
# The Z3 check of the Needed solution knows logged tests (not evaluated:
# they select nothing they read).
# VERIFY: verify: Needed at {{.*}}replay_logged_tests.py:[[@LINE+56]]:9: {{.*}} the solution satisfies every constraint and is the least
# CHECK-LABEL: {{^}}def train(epoch):
# CHECK: {{^ *}}for batch_idx, (inputs, targets) in enumerate(_detc_rt.batches(trainloader, 2)):
# CHECK-NEXT: {{^ *}}if _detc_rt.guard(): optimizer.zero_grad()
# CHECK-LABEL: {{^}}def test(epoch):
# CHECK: {{^ *}}for batch_idx, (inputs, targets) in enumerate(_detc_rt.batches(testloader, 2)):
# CHECK-NEXT: {{^ *}}if _detc_rt.guard(): outputs = net(inputs)
# CHECK: {{^ *}}if _detc_rt.guard(): acc = 100. * correct / total
# CHECK-NEXT: {{^ *}}if _detc_rt.decide([[TEST:[0-9]+]], (acc > best_acc)) if _detc_rt.guard() else _detc_rt.decision([[TEST]]):
# CHECK-NEXT: {{^ *}}if _detc_rt.guard(): state = {
# CHECK: {{^ *}}_detc_rt.announce_checkpoint([[SITE:[0-9]+]], {"criterion": lambda: criterion, "optimizer": lambda: optimizer})
# CHECK-NEXT: {{^ *}}if _detc_rt.guard(): _detc_rt.checkpoint([[SITE]], torch.save, {"criterion": lambda: criterion, "optimizer": lambda: optimizer})(state, "best.pt")
# CHECK-NEXT: {{^ *}}if _detc_rt.restoring([[SITE]]):
# A cheap test whose body is the save: announced before it, restored after
# it (the `global` the restore needs comes first).
# CHECK-LABEL: {{^}}def save_last(epoch):
# CHECK-NEXT: {{^ *}}global best_acc, criterion, optimizer
# CHECK-NEXT: {{^ *}}_detc_rt.announce_checkpoint([[LAST:[0-9]+]], {"best_acc": lambda: best_acc, "criterion": lambda: criterion, "optimizer": lambda: optimizer})
# CHECK-NEXT: {{^ *}}if epoch % 2 == 0:
# CHECK-NEXT: {{^ *}}if _detc_rt.guard(): _detc_rt.checkpoint([[LAST]], torch.save, {"best_acc": lambda: best_acc, "criterion": lambda: criterion, "optimizer": lambda: optimizer})({"net": net.state_dict(), "epoch": epoch}, "last.pt")
# CHECK-NEXT: {{^    }}if _detc_rt.restoring([[LAST]]):
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

best_acc = 0
trainloader = DataLoader(TensorDataset(torch.randn(32, 4), torch.arange(32) % 2),
                         batch_size=8, shuffle=True, num_workers=2)
testloader = DataLoader(TensorDataset(torch.randn(16, 4), torch.arange(16) % 2),
                        batch_size=8, num_workers=2)
net = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.3), nn.Linear(8, 2))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)


def train(epoch):
    net.train()
    for batch_idx, (inputs, targets) in enumerate(trainloader):
        optimizer.zero_grad()
        loss = criterion(net(inputs), targets)
        loss.backward()
        optimizer.step()


def test(epoch):
    global best_acc
    net.eval()
    correct, total = 0, 0
    with torch.no_grad():
        for batch_idx, (inputs, targets) in enumerate(testloader):
            outputs = net(inputs)
            correct += outputs.argmax(1).eq(targets).sum().item()
            total += targets.size(0)
    acc = 100. * correct / total
    if acc > best_acc:
        state = {"net": net.state_dict(), "acc": acc, "epoch": epoch}
        torch.save(state, "best.pt")
        best_acc = acc


def save_last(epoch):
    if epoch % 2 == 0:
        torch.save({"net": net.state_dict(), "epoch": epoch}, "last.pt")


for epoch in range(4):
    train(epoch)
    test(epoch)
    save_last(epoch)

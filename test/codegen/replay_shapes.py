# Checkpoint shapes of public scripts, each restored where it is written:
# a helper forwarding `torch.save(*args, **kwargs)` (the object is the
# caller's first argument, a dict variable built before the call), and a
# save inside a function that must restore a module global the function
# only reads (pytorch-cifar's `test(epoch)` saving with `criterion` and
# `best_acc` globals): the function declares it `global` first.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: detc writes no sidecar
import torch
import torch.nn as nn

net = nn.Linear(4, 2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
best = 0.0
history = []


def save_checkpoint(*args, **kwargs):
    torch.save(*args, **kwargs)


def evaluate(epoch):
    global best
    acc = float(epoch)
    if acc >= best:
        torch.save({"net": net.state_dict(), "acc": acc, "epoch": epoch,
                    "history": history}, "best.pt")
        best = acc


# CHECK-LABEL: def save_checkpoint(*args, **kwargs):
# CHECK-NEXT: _detc_rt.checkpoint({{[0-9]+}}, torch.save)(*args, **kwargs)
# CHECK-LABEL: def evaluate(epoch):
# CHECK-NEXT: global history, opt  # detc: the restore below assigns these module-level variables
# CHECK-NEXT: global best
# CHECK: _detc_rt.checkpoint([[BEST:[0-9]+]], torch.save, {"opt": lambda: opt})
# CHECK: if _detc_rt.restoring([[BEST]]):
# CHECK: {{^ +}}history = _detc_rt.restore_value(lambda: history, _detc_ckpt["history"])
# CHECK: _detc_rt.resumed({"net": lambda: net.state_dict()})
# CHECK-LABEL: {{^}}for epoch in range(3):
# CHECK: _detc_rt.announce_checkpoint([[LAST:[0-9]+]], {"net": lambda: net, "opt": lambda: opt, "history": lambda: history}, loops=("epoch",))
# CHECK: if _detc_rt.restoring([[LAST]]):
# CHECK-NEXT: _detc_ckpt = _detc_rt.user_checkpoint()
# CHECK-NEXT: state = _detc_ckpt
# CHECK-NEXT: net.load_state_dict(_detc_ckpt["net"])
for epoch in range(3):
    opt.zero_grad()
    loss = net(torch.randn(8, 4)).sum()
    loss.backward()
    opt.step()
    history.append(loss.item())
    state = {"net": net.state_dict(), "opt": opt.state_dict(), "epoch": epoch}
    save_checkpoint(state, "last.pt")
    evaluate(epoch)

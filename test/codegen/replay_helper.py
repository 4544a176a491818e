# A checkpoint written by a helper that saves its parameter
# (`save_checkpoint(state, is_best)`, the ImageNet example's shape): each
# call of the helper is a site of its own, announced just before the call
# (the announcement counts the site's instances); fast-forward skips the
# call, and the restore after it loads what that call's argument holds —
# a dict display, or a variable assigned one just before. A save after the
# loops makes fast-forward skip the loops before it.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --allow-empty
# RUN: FileCheck %s --check-prefix=OUT < %t.py
# CHECK-NOT: warning
import shutil

import torch
import torch.nn as nn


def save_checkpoint(state, is_best, filename="checkpoint.pth.tar"):
    # OUT: _detc_rt.checkpoint([[DEFAULT:[0-9]+]], torch.save)(state, filename)  # detc: checkpoint with sidecar (the site its caller announces)
    torch.save(state, filename)
    # OUT-NEXT: if _detc_rt.guard() and (is_best):  # detc: skipped in fast-forward
    if is_best:
        shutil.copyfile(filename, filename + ".best")


model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
best = 1e9
step = 0
for epoch in range(3):
    for i in range(4):
        opt.zero_grad()
        loss = model(torch.randn(8, 4)).sum()
        loss.backward()
        opt.step()
        step += 1
        # OUT: _detc_rt.announce_checkpoint([[DEFAULT]], {{.*}})  # detc: the checkpoint it writes is site [[DEFAULT]]
        # OUT-NEXT: if _detc_rt.guard(): save_checkpoint({"model": model.state_dict(), "step": step}, False, "mid.pt")  # detc: skipped in fast-forward
        # OUT-NEXT: if _detc_rt.restoring([[DEFAULT]]):  # detc: resume here (site [[DEFAULT]])
        # OUT-NEXT: _detc_ckpt = _detc_rt.user_checkpoint()
        # OUT-NEXT: model.load_state_dict(_detc_ckpt["model"])
        # OUT-NEXT: step = _detc_rt.restore_value(lambda: step, _detc_ckpt["step"])
        save_checkpoint({"model": model.state_dict(), "step": step}, False, "mid.pt")
    is_best = loss.item() < best
    best = min(best, loss.item())
    # The variable holds a dict display: its entries are restored. This call
    # saves no `step`; it needs none restored (another call saves it).
    state = {"epoch": epoch + 1, "model": model.state_dict(),
             "optimizer": opt.state_dict(), "best": best}
    # OUT: _detc_rt.announce_checkpoint([[END:[0-9]+]], {{.*}})  # detc: the checkpoint it writes is site [[END]]
    # OUT-NEXT: if _detc_rt.guard(): save_checkpoint(state, is_best)  # detc: skipped in fast-forward
    # OUT-NEXT: if _detc_rt.restoring([[END]]):
    # OUT-NEXT: _detc_ckpt = _detc_rt.user_checkpoint()
    # OUT-NEXT: state = _detc_ckpt
    # OUT-NEXT: model.load_state_dict(_detc_ckpt["model"])
    # OUT-NEXT: opt.load_state_dict(_detc_ckpt["optimizer"])
    # OUT-NEXT: best = _detc_rt.restore_value(lambda: best, _detc_ckpt["best"])
    save_checkpoint(state, is_best)

# OUT: for epoch2 in (range(2)) if _detc_rt.guard() else ():  # detc: skipped in fast-forward
for epoch2 in range(2):
    opt.zero_grad()
    model(torch.randn(8, 4)).sum().backward()
    opt.step()
# OUT: _detc_rt.checkpoint([[FINAL:[0-9]+]], torch.save)({"model": model.state_dict()}, "final.pt")  # detc: checkpoint with sidecar (site [[FINAL]])
torch.save({"model": model.state_dict()}, "final.pt")
print("done")

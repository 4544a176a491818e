# A `continue` decides which statements of its own loop run: its test
# re-runs in fast-forward only when that loop runs there. Here the loop is
# in a loss's forward (DINO's DINOLoss skips the matching pair of views),
# which fast-forward skips with the rest of the training step. The
# session-62 first binary forced every jump's test, so the loss, both
# forwards and the backward were re-run to evaluate `v == iq`, and the
# checkpoints got no sidecar ("fast-forward would run the training
# again"). A `break` of a loop fast-forward runs decides how far it goes:
# the epoch loop's (around the saves) re-runs its test; the batch loop's
# (it goes round on placeholder batches) reads the loss, which only the
# training decides: the run logs its decisions, fast-forward takes them.
#
# The second save is under an `if`, of the dict built before it: its
# restore loads the dict's entries like the first's (the first binary
# emitted `state = restore_object(state, ...)`, reading `state`, which
# fast-forward never builds: UnboundLocalError on every resume).
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# RUN: detc analyze --verify %s 2>&1 | FileCheck %s --check-prefix=VERIFY
# DIAG-NOT: detc writes no sidecar
# VERIFY-COUNT-2: verify: Needed at {{.*}} the solution satisfies every constraint and is the least
# CHECK-LABEL: {{^}}def pair_loss(student_views, teacher_views):
# CHECK: {{^ +}}for iq, q in enumerate(teacher_views):
# CHECK-NEXT: {{^ +}}for v in range(len(student_views)):
# CHECK-NEXT: {{^ +}}if v == iq:
# CHECK: {{^ +}}for x, y in _detc_rt.batches(loader, {{[0-9]+}}):
# CHECK-NEXT: {{^ +}}if _detc_rt.guard(): loss = pair_loss(
# CHECK: {{^ +}}if _detc_rt.decide([[TEST:[0-9]+]], ({{.*}}loss.item() > 100.0{{.*}})) if _detc_rt.guard() else _detc_rt.decision([[TEST]]):
# CHECK-NEXT: {{^ +}}break
# CHECK: {{^ +}}if _detc_rt.guard(): state = {"model": model.state_dict()
# CHECK: {{^ +}}if _detc_rt.restoring([[FIRST:[0-9]+]]):
# CHECK: {{^ +}}state = _detc_ckpt
# CHECK-NEXT: {{^ +}}model.load_state_dict(_detc_ckpt["model"])
# CHECK: {{^ +}}if epoch % 2 == 1:
# CHECK: {{^ +}}if _detc_rt.restoring([[SECOND:[0-9]+]]):
# CHECK-NEXT: {{^ +}}_detc_ckpt = _detc_rt.user_checkpoint()
# CHECK-NEXT: {{^ +}}state = _detc_ckpt
# CHECK-NEXT: {{^ +}}model.load_state_dict(_detc_ckpt["model"])
# CHECK-NEXT: {{^ +}}opt.load_state_dict(_detc_ckpt["opt"])
# CHECK: {{^ +}}if epoch == 5:
# CHECK-NEXT: {{^ +}}break
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(32, 4), torch.zeros(32)),
                    batch_size=8, shuffle=True, num_workers=2)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Dropout(0.3),
                            torch.nn.Linear(8, 3))
opt = torch.optim.SGD(model.parameters(), lr=0.1)


def pair_loss(student_views, teacher_views):
    total = 0
    for iq, q in enumerate(teacher_views):
        for v in range(len(student_views)):
            if v == iq:
                continue
            total = total + (q.softmax(-1) * student_views[v].log_softmax(-1)).sum()
    return -total


for epoch in range(8):
    for x, y in loader:
        loss = pair_loss(model(torch.cat([x, x.flip(1)])).chunk(2),
                         model(x).detach().chunk(1))
        if loss.item() > 100.0:
            break
        opt.zero_grad()
        loss.backward()
        opt.step()
    state = {"model": model.state_dict(), "opt": opt.state_dict(),
             "epoch": epoch}
    torch.save(state, "last.pt")
    if epoch % 2 == 1:
        torch.save(state, "every2.pt")
    if epoch == 5:
        break

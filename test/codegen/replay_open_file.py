# Checkpoints written into a file the script opens: fast-forward runs the
# `open(path, "wb")` that reaches the save, which would truncate the very
# checkpoint it resumes from. The builtin `open` binding the save's file
# goes through checkpoint_file: in a `with` around the save, and in an
# assignment before it (`f = open(...)`; `.opened()` hands over the file
# itself). The session-75 first binary left the assignment alone, and a
# resume failed with "restoring it raised EOFError" on a truncated file.
# A file opened outside a loop around the save (once, for several saves)
# goes through checkpoint_file(open, across_saves=True): opened as
# written except in fast-forward when it is the checkpoint resumed from
# (the session-76 first binary left it alone, and the resume truncated
# the checkpoint before refusing it). An `open` in a block that is not
# around the save, another variable's `open`, and an `open` the script
# rebinds are left as written. Two saves into one file wrap its `open`
# once.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# DIAG-NOT: detc writes no sidecar
import torch
import torch.nn as nn

model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    for x in torch.randn(4, 2, 4):
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
    # CHECK: {{^    }}with _detc_rt.checkpoint_file(open)("a.pt", "wb") as f:
    with open("a.pt", "wb") as f:
        torch.save(model.state_dict(), f)
    # CHECK: {{^    }}g = _detc_rt.checkpoint_file(open)("b.pt", "wb").opened()
    g = open("b.pt", "wb")
    # CHECK: {{^    }}log = open("log.txt", "w")
    log = open("log.txt", "w")
    if epoch > 5:
        # CHECK: {{^        }}g = open("c.pt", "wb")
        g = open("c.pt", "wb")
    torch.save(opt.state_dict(), g)
    g.close()
    log.close()


# CHECK: {{^}}log_file = _detc_rt.checkpoint_file(open, across_saves=True)("e.pt", "wb")
log_file = open("e.pt", "wb")
# CHECK: {{^}}with _detc_rt.checkpoint_file(open, across_saves=True)("f.pt", "wb") as every:
with open("f.pt", "wb") as every:
    for epoch in range(2):
        opt.step()
        torch.save(model.state_dict(), log_file)
        torch.save(model.state_dict(), every)


# CHECK: {{^}}with _detc_rt.checkpoint_file(open)("g.pt", "wb") as both:
with open("g.pt", "wb") as both:
    torch.save(model.state_dict(), both)
    torch.save(opt.state_dict(), both)


def save_with_own_open(state, path, open=open):
    # CHECK: {{^    }}f = open(path, "wb")
    f = open(path, "wb")
    torch.save(state, f)
    f.close()


save_with_own_open(model.state_dict(), "d.pt")

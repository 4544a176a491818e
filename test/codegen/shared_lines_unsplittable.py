# A statement fast-forward must skip that shares its line in a way detc
# cannot undo (the next statement is on a backslash continuation line, so
# there is no line to split) still leaves the whole script without
# sidecars (a resume that might be wrong is never emitted), and detc says
# why at the user's line; the determinism rewrite is still applied.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s
# RUN: FileCheck %s --check-prefix=OUT < %t.py
import torch
import torch.nn as nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    # CHECK: shared_lines_unsplittable.py:[[@LINE+1]]:5: warning: detc writes no checkpoint sidecars for this script: a statement detc must skip shares its line with another statement [detc-replay]
    opt.zero_grad(); \
        model(torch.randn(8, 4)).sum().backward()
    opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, "ok.pt")
# OUT: import detc_runtime as _detc_rt
# OUT-NOT: {{^ *}}_detc_rt.checkpoint(
# OUT-NOT: {{^ *}}if _detc_rt.guard

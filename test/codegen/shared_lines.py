# Statements sharing a line (`a; b`, a body on its header's line) that a
# planner needs on lines of their own are split onto lines of their own,
# and the script is planned again: every statement fast-forward skips gets
# its guard and the save its sidecar. The report speaks of the user's
# lines (the warning below names line and column of this file, not of the
# split one, and so does the list the emitted script carries), and the
# diff shows each user line replaced by its split.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s
# RUN: FileCheck %s --check-prefix=OUT < %t.py
# RUN: FileCheck %s --check-prefix=CONF < %t.py
# RUN: detc transform %s --emit-python --diff 2>/dev/null | FileCheck %s --check-prefix=DIFF
# RUN: %python -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" %t.py
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.rand(8, 4)), batch_size=4)
step = 0
for epoch in range(3):
    for (x,) in loader:
        opt.zero_grad(); model(x).sum().backward()
        opt.step()
        # OUT: {{^}}        if _detc_rt.guard(): opt.zero_grad()  # detc: skipped in fast-forward{{$}}
        # OUT-NEXT: {{^}}        if _detc_rt.guard(): model(x).sum().backward()  # detc: skipped in fast-forward; a statement of a shared line, on a line of its own{{$}}
        # OUT-NEXT: {{^}}        if _detc_rt.guard(): opt.step()
        # CHECK: shared_lines.py:[[@LINE+2]]:34: warning: cannot make the random call '*.exponential_'
        # CONF: _detc_rt.configure({{.*}}left_nondeterministic=('shared_lines.py:[[@LINE+1]]', ))
        w = x.softmax(1); pick = w.exponential_()
        step += 1
        if step % 2 == 0: print(step); torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, "ok.pt")
        # OUT: {{^}}        if _detc_rt.guard(): w = x.softmax(1){{ }}
        # OUT-NEXT: {{^}}        if _detc_rt.guard(): pick = w.exponential_(){{ }}
        # OUT: {{^}}        _detc_rt.announce_checkpoint(1, loops=("epoch", "x"))  # detc: the checkpoint written below is site 1{{$}}
        # OUT-NEXT: {{^}}        if step % 2 == 0:{{$}}
        # OUT-NEXT: {{^}}            if _detc_rt.guard(): print(step)  # detc:
        # OUT-NEXT: {{^}}            if _detc_rt.guard(): _detc_rt.checkpoint(1, torch.save)({"model": model.state_dict(), "opt": opt.state_dict()}, "ok.pt")  # detc: checkpoint with sidecar (site 1, announced above); skipped in fast-forward; a statement of a shared line, on a line of its own
        # OUT-NEXT: {{^}}        if _detc_rt.restoring(1):
# CHECK-NOT: warning:
# DIFF: {{^}}-        opt.zero_grad(); model(x).sum().backward()
# DIFF-NEXT: {{^}}+        if _detc_rt.guard(): opt.zero_grad()
# DIFF-NEXT: {{^}}+        if _detc_rt.guard(): model(x).sum().backward()
# DIFF: {{^}}-        if step % 2 == 0: print(step); torch.save(
# DIFF-NEXT: {{^}}+        _detc_rt.announce_checkpoint(1, loops=("epoch", "x"))
# DIFF-NEXT: {{^}}+        if step % 2 == 0:

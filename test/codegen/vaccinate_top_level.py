# --vaccinate gives the top level barriers too: a run of simple statements
# at column 0 becomes a cell without moving them — each statement's guard
# goes before it on its line, so its bytes stay as they are (a multi-line
# call too) — and the bodies of top-level blocks (`if __name__ ==
# "__main__":`) become cells as a function's blocks do, with no `return`
# after their call (none can arise at module level). What is still left
# without a barrier (a block whose body shares its header's line) is said
# once, with its lines. Imports and constants are not listed; an `elif`
# chain's bodies are cells too.
# RUN: detc transform %s --emit-python --vaccinate -o %t.py 2>&1 | FileCheck %s --check-prefix=WARN
# RUN: FileCheck %s < %t.py
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# WARN: vaccinate_top_level.py:[[@LINE+39]]:23: warning: --vaccinate: 1 statement(s) at the top level outside any loop have no crash barrier (line [[@LINE+39]]): an exception there ends the run as it would without detc; code in a function the script calls, or in a loop, is covered
# WARN-NOT: warning
# CHECK:      {{^}}def _detc_cell_[[C:[0-9]+]](_detc_r):
# CHECK-NEXT: {{^}} global torch, nn, EPOCHS, main, model, step
# CHECK-NEXT: {{^}} if _detc_r <= 0: torch.manual_seed(0)
# CHECK-NEXT: {{^}} if _detc_r <= 1 and _detc_rt.vaccine.mark(1): model = nn.Sequential(nn.Linear(4, 2),
# CHECK-NEXT: {{^}}nn.Dropout(0.1))
# CHECK-NEXT: {{^}}_detc_c = _detc_rt.vaccine.run(_detc_cell_[[C]], [[C]])
# CHECK-NEXT: {{^}}for step in range(3):
# CHECK:      {{^}}if __name__ == "__main__":
# CHECK-NEXT: {{^}} def _detc_cell_[[B:[0-9]+]](_detc_r):
# CHECK-NEXT: {{^}}  global torch, nn, EPOCHS, main, model, step
# CHECK-NEXT: {{^}}  if _detc_r <= 0 and _detc_rt.vaccine.mark(0):
# CHECK-NEXT: {{^}}    main(model)
# CHECK:      {{^}} _detc_c = _detc_rt.vaccine.run(_detc_cell_[[B]], [[B]])
# CHECK-NEXT: {{^}}if model is not None: print("trained")
# CHECK:      {{^}}elif EPOCHS > 1:
# CHECK-NEXT: {{^}} def _detc_cell_[[E:[0-9]+]](_detc_r):
# CHECK:      {{^}} _detc_c = _detc_rt.vaccine.run(_detc_cell_[[E]], [[E]])
import torch
import torch.nn as nn

EPOCHS = 2


def main(model):
    for epoch in range(EPOCHS):
        model(torch.ones(2, 4)).sum().backward()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 2),
nn.Dropout(0.1))
for step in range(3):
    model(torch.ones(1, 4)).sum().backward()
if __name__ == "__main__":
    main(model)
    EPOCHS = EPOCHS
    torch.save(model.state_dict(), "m.pt")
if model is not None: print("trained")
if model is None:
    raise SystemExit("no model")
elif EPOCHS > 1:
    EPOCHS = 1

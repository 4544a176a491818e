# --vaccinate covers the top level's loops and the functions the script
# calls; the top level's other statements get no barrier (a cell would
# move them into a def). The transform says which, once, with their
# lines: `model = ...` running out of memory at module level is no
# surprise. Imports, constants, `main()` (its body's cells are barriers)
# and statements inside loops are not listed.
# RUN: detc transform %s --emit-python --vaccinate -o %t.py 2>&1 | FileCheck %s
# RUN: %python -c "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')" %t.py
# CHECK: vaccinate_top_level.py:[[@LINE+13]]:1: warning: --vaccinate: 3 statement(s) at the top level outside any loop have no crash barrier (line [[@LINE+13]], [[@LINE+14]], [[@LINE+20]]): an exception there ends the run as it would without detc; code in a function the script calls, or in a loop, is covered
# CHECK-NOT: warning
import torch
import torch.nn as nn

EPOCHS = 2


def main(model):
    for epoch in range(EPOCHS):
        model(torch.ones(2, 4)).sum().backward()


torch.manual_seed(0)
model = nn.Linear(4, 2)
for step in range(3):
    model(torch.ones(1, 4)).sum().backward()
if __name__ == "__main__":
    main(model)
    EPOCHS = EPOCHS
    torch.save(model.state_dict(), "m.pt")

# A vaccinated function's cells declare its variables nonlocal, which
# Python forbids to annotate: `x: T = v` in a cell becomes `x = v` and a
# bare `x: T` (CheckHint's `_iterations: N`) becomes `pass`. The emitted
# script compiles and runs as the original does; an attribute's annotation
# stays.
# RUN: rm -f %t.py
# RUN: detc transform %s --emit-python --vaccinate=main -o %t.py
# RUN: FileCheck %s < %t.py
# RUN: env PYTHONPATH=%detc_runtime %python %t.py | FileCheck %s --check-prefix=OUT
# CHECK: {{^ +}}self.count: int = 0
# CHECK: {{^ +}}total = 0
# CHECK-NOT: {{^ +}}total: int
# CHECK: {{^ +}}pass
# CHECK-NOT: {{^ +}}last: int
# OUT: 6 3


class Box:
    def __init__(self):
        self.count: int = 0


def main():
    total: int = 0
    box = Box()
    for i in range(4):
        _iterations: 4
        total = total + i
        box.count += 1
    last: int
    print(total, box.count - 1)


main()

# Liveness at a checkpoint hint includes attributes of `self` (through the
# method's instance: `t.count`), module globals (`best`) and closure
# variables (`scale`, read by the nested `bump`); `x` is redefined before any
# use after the hint, so it is not live.
# RUN: detc %s --debug-info | detc-opt --test-liveness -o /dev/null | FileCheck %s
# CHECK: hint {{.*}}liveness.py:[[@LINE+21]]:9 via {{[0-9:]+}}: live after {best, scale, t, t.count}
best = 0.0


class Trainer:
    def __init__(self):
        self.count = 0

    def step(self):
        self.count += 1
        return self.count


def main():
    scale = 2.0
    t = Trainer()

    def bump(v):
        return v * scale

    for epoch in range(3):
        _checkpoint()
        x = bump(t.step())
        global best
        best = max(best, x)


main()

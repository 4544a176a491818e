# CheckHint: `_checkpoint()` hints and `_iterations:` loop bounds.
# RUN: detc %s | FileCheck %s
# RUN: not detc %S/Inputs/bad_iterations.py 2>&1 | FileCheck %s --check-prefix=BAD


def _checkpoint(label=None):
    pass


def train(params, n):
    # CHECK: detc.for iterations 5 defs ["epoch"]
    for epoch in range(5):
        _iterations: 5
        # CHECK: detc.while iterations 50 uses ["i", "n"]
        i = 0
        while i < n:
            _iterations: 50
            params = params * 0.5
            i += 1
            # CHECK: detc.hint{{$}}
            _checkpoint()
        # CHECK: detc.hint "epoch"
        _checkpoint("epoch")
    return params

# BAD: bad_iterations.py:4:22: error: '_iterations' needs a positive integer literal
# BAD: bad_iterations.py:6:1: error: '_iterations' annotation outside a loop

"""The model of the multi-file just-in-time inputs (jit_engine/,
jit_trainer/), a module they import: a small MLP with dropout whose
forward fails as DETC_TEST_FAIL=PHASE:STEP asks (an exception in the
forward or in the backward, or a hang, at the STEP-th training forward).
"""
import os
import time

import torch.nn as nn

PHASE, _, AT = os.environ.get("DETC_TEST_FAIL", "").partition(":")
AT = int(AT) if AT else -1


def fail_backward(grad):
    raise RuntimeError("injected failure in the backward")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Dropout(0.3))
        self.head = nn.Linear(16, 3)
        self.calls = 0

    def forward(self, x):
        h = self.body(x)
        if self.training:
            self.calls += 1
            if self.calls == AT and PHASE == "forward":
                raise RuntimeError("injected failure in the forward")
            if self.calls == AT and PHASE == "hang":
                time.sleep(10 ** 6)
            if self.calls == AT and PHASE == "backward":
                h.register_hook(fail_backward)
        return self.head(h)

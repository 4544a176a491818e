# Idiom (issue 17): `model.forward(x)` written out. Some training code calls
# the forward method instead of the module: it is the model's forward all
# the same (detc.forward of the builds the variable may hold; the module's
# hooks, which `forward` skips, are not modelled either way), here in the
# training loop after a validation that left the model in evaluation mode
# (detc-eval-not-restored), and inside a method of the model
# (`self.forward(x)` in `predict`). The batch loop counts its steps
# (`range`) and takes one each iteration: its body is a per-batch region,
# and the dropout the written-out forward reaches draws there.
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: detc %s | FileCheck %s --check-prefix=IR
# IR: detc.func @predict kind method params ["self", "x"] {
# IR-NEXT: detc.forward "self" builds ["[[B:b[0-9_]+]]"]
# IR: detc.for defs ["batch"] {
# IR: detc.forward "model" builds ["[[B]]"]
# IR-NOT: detc.call @Net::@forward bind {self = "model"{{.*}}uses ["model", "x"]
import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        # CHECK: explicit_forward.py:[[@LINE+1]]:21: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}explicit_forward.py:[[#@LINE+21]]:9 [detc-unsafe-rng]
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.fc(self.drop(x))

    def predict(self, x):
        return self.forward(x).argmax(1)


def validate(model, x):
    model.eval()
    with torch.no_grad():
        return model.predict(x)


def main():
    model = Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.ones(8, 4), torch.zeros(8, dtype=torch.long)
    for epoch in range(3):
        for batch in range(4):
            opt.zero_grad()
            # CHECK: explicit_forward.py:[[@LINE+1]]:36: warning: the model may still be in evaluation mode in this training forward: `model.eval()` at line [[#@LINE-12]] reaches it
            loss = F.cross_entropy(model.forward(x), y)
            loss.backward()
            opt.step()
        validate(model, x)


main()
# CHECK: 2 warning(s)

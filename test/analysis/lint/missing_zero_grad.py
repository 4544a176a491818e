# detc-missing-zero-grad: the loop never resets gradients, so every step
# applies the sum of all gradients so far. Fixed variants (silent): zero_grad
# before backward; gradient accumulation (step + zero_grad every k batches);
# adversarial training (an attack backward, then zero_grad, backward, step);
# two optimizers (GAN-style), each zeroed before its own backward; the
# gradients cleared by hand (`p.grad = None` / `p.grad.zero_()` over the
# model's parameters). Clearing only an input's gradient still warns.
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: not detc analyze %S/Inputs/input_grad_only.py --werror | FileCheck %s --check-prefix=INPUT
# INPUT: input_grad_only.py:17:5: warning: gradients are not reset between optimizer steps
# RUN: for f in %S/Inputs/zero_grad_fixed.py %S/Inputs/accumulation.py %S/Inputs/adversarial.py %S/Inputs/two_optimizers.py %S/Inputs/grad_none.py; do detc analyze $f --werror || exit 1; done | FileCheck %s --check-prefix=FIXED
import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = [(torch.ones(3, 4), torch.zeros(3, 2))] * 4


def train_epoch():
    for x, y in data:
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        # CHECK: missing_zero_grad.py:[[@LINE+1]]:9: warning: gradients are not reset between optimizer steps in the loop at line [[@LINE-3]]: the backward() before this step adds to the gradients the previous step already applied (call zero_grad() before backward()) [detc-missing-zero-grad]
        opt.step()
        # CHECK: missing_zero_grad.py:[[@LINE-3]]:9: note: the gradients accumulate here


for epoch in range(2):
    train_epoch()
# CHECK: 1 warning(s)

# FIXED-NOT: warning:
# FIXED: 0 warning(s)
# FIXED-NOT: warning:

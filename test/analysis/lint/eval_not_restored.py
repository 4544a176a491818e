# detc-eval-not-restored: validate() switches the model to evaluation mode
# and the next epoch's training forward runs without model.train(). The
# fixed variant calls model.train() at the top of each epoch; evaluation
# forwards (no backward in their loop) are never reported.
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: sed -e 's/^    for epoch in range(3):$/&\n        model.train()/' %s > %t.fixed.py
# RUN: detc analyze %t.fixed.py --werror | FileCheck %s --check-prefix=FIXED
import torch
from torch import nn
import torch.nn.functional as F


def validate(model, data):
    model.eval()
    with torch.no_grad():
        for x in data:
            model(x)


def main():
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = [torch.randn(8, 4) for _ in range(4)]
    for epoch in range(3):
        for x in data:
            # CHECK: eval_not_restored.py:[[@LINE+1]]:31: warning: the model may still be in evaluation mode in this training forward: `model.eval()` at line [[EVAL:[0-9]+]] reaches it (e.g. in the next epoch after the validation) with no `model.train()` after it on that path, so dropout and batch-norm updates are off for the rest of training; call `model.train()` before the training loop's body [detc-eval-not-restored]
            loss = F.mse_loss(model(x), x[:, :2])
            # CHECK: eval_not_restored.py:[[EVAL]]:5: note: switched to evaluation mode here
            opt.zero_grad()
            loss.backward()
            opt.step()
        validate(model, data)


main()
# CHECK: 1 warning(s)
# FIXED-NOT: warning:
# FIXED: 0 warning(s)

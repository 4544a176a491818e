# detc-eval-not-restored through a closure: the training loop's loss is a
# nested function running the enclosing function's model (`^model` in the
# IR), and validate() leaves it in evaluation mode for the next epoch. The
# closure's forward was matched to no variable: nothing was reported. The
# fixed variant calls model.train() at the top of each epoch.
# RUN: not detc analyze %s --werror 2>&1 | FileCheck %s
# RUN: sed -e 's/^    for epoch in range(3):$/&\n        model.train()/' %s > %t.fixed.py
# RUN: detc analyze %t.fixed.py --werror
# CHECK: eval_not_restored_closure.py:[[@LINE+12]]:16: warning: the model may still be in evaluation mode in this training forward: `model.eval()` at line [[@LINE+15]] reaches it
# CHECK: 1 warning(s)
import torch
import torch.nn as nn


def main():
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    data = [torch.randn(8, 4) for _ in range(4)]

    def loss_of(x):
        return model(x).pow(2).mean()

    def validate():
        model.eval()
        with torch.no_grad():
            for x in data:
                model(x)

    for epoch in range(3):
        for x in data:
            opt.zero_grad()
            loss_of(x).backward()
            opt.step()
        validate()


main()

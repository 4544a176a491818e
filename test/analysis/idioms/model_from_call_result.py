# Idiom: the model is the result of a call, called at once —
# `get_model()(x)`, `build(cfg)(x)`. The points-to says what the callee's
# call returns; the call of it is that model's forward (its dropout draws
# in the training loop's per-batch region). Before, the call was an opaque
# statement: the dropout went unseen.
# RUN: not detc analyze %s --werror | FileCheck %s
# RUN: detc %s | FileCheck %s --check-prefix=IR
# IR: detc.call @get_model defs ["[[T:\$[0-9]+]]"]
# IR-NEXT: detc.forward "[[T]]" builds ["{{b[0-9_]+}}"] defs ["out"]
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        # CHECK: model_from_call_result.py:[[@LINE+1]]:21: warning: generator {{.*}} per-batch data-parallel region that starts at {{.*}}.py:[[@LINE+18]]:5 [detc-unsafe-rng]
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        return self.fc(self.drop(x))


MODEL = Net()


def get_model():
    return MODEL


def train():
    torch.manual_seed(0)
    data = TensorDataset(torch.ones(8, 4), torch.zeros(8, dtype=torch.long))
    opt = torch.optim.SGD(MODEL.parameters(), lr=0.1)
    for x, y in DataLoader(data, batch_size=4):
        opt.zero_grad()
        out = get_model()(x)
        F.cross_entropy(out, y).backward()
        opt.step()


train()

# Idiom 10 (issue 17): evaluation mode reached through a helper.
# validate(model, loader) begins with model.eval(): the user model's
# dropout module and its functional dropout (training=self.training) draw
# nothing in validate's loop. train_epoch() puts the model back with
# model.train(): the same forwards draw there, so the findings name the
# training loop's region only.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK: eval_helper.py:[[@LINE+14]]:59: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}eval_helper.py:[[@LINE+31]]:5
# CHECK-NOT: region that starts at {{.*}}eval_helper.py:[[@LINE+23]]:
# CHECK: eval_helper.py:[[@LINE+15]]:26: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}eval_helper.py:[[@LINE+29]]:5
# CHECK-NOT: region that starts at {{.*}}eval_helper.py:[[@LINE+21]]:
# CHECK: 2 warning(s); unsafe generators (ERR): 'torch' (global)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Classifier(nn.Module):
    def __init__(self, width=8, classes=2):
        super(Classifier, self).__init__()
        self.head, self.drop = nn.Linear(width, classes), nn.Dropout(p=0.3)

    def forward(self, x):
        return self.head(F.dropout(self.drop(x), 0.2, training=self.training))


def validate(model, loader):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            total += F.cross_entropy(model(x), y).item()
    return total


def train_epoch(model, loader, opt):
    model.train()
    for x, y in loader:
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()


def main():
    data = TensorDataset(torch.zeros(64, 8), torch.zeros(64).long())
    loader = DataLoader(data, batch_size=8)
    model = Classifier()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(3):
        train_epoch(model, loader, opt)
        print(validate(model, loader))


main()

# A function summarized after many expansions (here: the statement limit is
# low) whose code opens a data-parallel region only in one branch: the
# `nn.DataParallel` a Time-Series-Library experiment wraps its model in
# when several GPUs are asked for. Only the code that runs inside the
# region is in it. Before, every event of the summary was placed inside the
# wrapper's region, and the build bodies of the function (what the models'
# forwards run) counted as run by building them: the buffer drawn in
# Net.__init__ was "used inside the per-batch data-parallel region that
# starts at" the DataParallel line, and the unknown constructor a "may
# draw" inside the training loop's region. The forward in the loop is the
# one finding.
# RUN: detc analyze --python none %s --max-statements=400 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: summarized_regions.py:[[@LINE+5]]:17: warning: cannot resolve import 'zoo'
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from zoo import make_model


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(4, width)
        self.noise = torch.randn(width)

    def forward(self, x):
        return self.fc(x) + self.noise


class Exp:
    def __init__(self, width, multi):
        self.model = self._build_model(width, multi)

    def _build_model(self, width, multi):
        model = make_model(width) if width > 16 else Net(width)
        if multi:
            model = nn.DataParallel(model)
        return model

    def train(self, loader):
        opt = torch.optim.SGD(self.model.parameters(), lr=0.1)
        for x, y in loader:
            opt.zero_grad()
            # CHECK: summarized_regions.py:[[@LINE+1]]:21: warning: may draw: 'self.model' calls code detc could not read, inside the per-batch data-parallel region that starts at {{.*}}summarized_regions.py:[[@LINE-2]]:9
            loss = (self.model(x) - y).pow(2).mean()
            loss.backward()
            opt.step()


def main():
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(8, 4), torch.randn(8, 1))
    loader = DataLoader(data, batch_size=2)
    Exp(2, False).train(loader)
    for width in (4, 8, 16, 32):
        exp = Exp(width, width > 8)
        exp.train(loader)


main()
# CHECK: 1 warning(s); unsafe generators (ERR): none

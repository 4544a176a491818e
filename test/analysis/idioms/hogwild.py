# Idiom 8 (issue 17): hogwild training. `mp.Process(target=train,
# args=(model, ...))` runs train() in several processes at once, sharing
# the model: a data-parallel region at the Process call. The per-process
# initial perturbation drawn at the top of train() (outside any batch loop)
# is unsafe there; the loader's own region is inside it. A Process whose
# target is not the script's (a library function) is not followed.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK: hogwild.py:[[@LINE+21]]:37: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}hogwild.py:[[@LINE+37]]:13
# CHECK: 1 warning(s); unsafe generators (ERR): 'torch' (global)
import os

import torch
import torch.multiprocessing as mp
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc(x)


def train(rank, model, dataset):
    with torch.no_grad():
        model.fc.weight.add_(0.01 * torch.randn_like(model.fc.weight))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(dataset, batch_size=16, shuffle=False)
    for x, y in loader:
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    print(rank, os.getpid())


def main():
    dataset = TensorDataset(torch.zeros(64, 8), torch.zeros(64).long())
    model = Net()
    model.share_memory()
    processes = []
    for rank in range(4):
        p = mp.Process(target=train, args=(rank, model, dataset))
        p.start()
        processes.append(p)
    for p in processes:
        p.join()
    logger = mp.Process(target=print, args=("done",))
    logger.start()


if __name__ == "__main__":
    main()

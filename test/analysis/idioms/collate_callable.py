# A collate_fn that is an object of the program's class with `__call__`
# (hysts/pytorch_image_classification's MixupCollator, picked by a factory
# that returns it or torch's default_collate): it runs once per batch in
# the workers, and its mixup draws (numpy's beta, torch's randperm) are
# unsafe there. Before, only functions and bound methods were followed.
# RUN: detc analyze %s 2>&1 | FileCheck %s
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.dataloader import default_collate


class MixupCollator:
    def __init__(self, alpha):
        self.alpha = alpha

    def __call__(self, batch):
        data, targets = default_collate(batch)
        # CHECK-DAG: collate_callable.py:[[@LINE+1]]:15: warning: generator 'np.random' (global) is used inside the per-example data-parallel region that starts at {{.*}}collate_callable.py:[[@LINE+18]]:9
        lam = np.random.beta(self.alpha, self.alpha)
        # CHECK-DAG: collate_callable.py:[[@LINE+1]]:19: warning: generator 'torch' (global) is used inside the per-example data-parallel region
        indices = torch.randperm(data.size(0))
        return data * lam + data[indices] * (1 - lam), targets


def create_collator(use_mixup):
    if use_mixup:
        return MixupCollator(0.2)
    return default_collate


def train(use_mixup):
    loader = DataLoader(TensorDataset(torch.randn(16, 2), torch.arange(16)),
                        batch_size=4, shuffle=True, num_workers=2,
                        collate_fn=create_collator(use_mixup))
    for epoch in range(2):
        for x, y in loader:
            print(x.sum().item())


train(True)
# CHECK: 2 warning(s)

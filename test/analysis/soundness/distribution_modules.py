# torch.distributions classes imported from the modules that define them
# (`from torch.distributions.categorical import Categorical`, as cleanrl's
# agents do; `torch.distributions.normal.Normal`): the same classes as the
# package's, so `sample()` draws from torch's global generator and
# `log_prob`/`entropy` draw nothing (before: every use was a may-draw of
# code detc could not read, and the draw was not named as one).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: distribution_modules.py:[[@LINE+15]]:17: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}distribution_modules.py:[[@LINE+21]]:5
# CHECK-DAG: distribution_modules.py:[[@LINE+15]]:17: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}distribution_modules.py:[[@LINE+20]]:5
# CHECK: 2 warning(s)
import torch
import torch.distributions.normal
from torch.distributions.categorical import Categorical
from torch.utils.data import DataLoader, Dataset


class Noisy(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        probs = Categorical(logits=torch.zeros(4))
        label = probs.sample()
        noise = torch.distributions.normal.Normal(0.0, 1.0).rsample((4,))
        return noise, label, probs.log_prob(label), probs.entropy()


for epoch in range(2):
    for x, y, lp, h in DataLoader(Noisy(), batch_size=2, num_workers=2):
        pass

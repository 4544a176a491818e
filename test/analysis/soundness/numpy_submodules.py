# numpy's submodules compute from their arguments as numpy itself does:
# np.linalg.inv and np.fft.fft2 in a dataset's degradation (KAIR's blur
# kernels) draw nothing; the draw is np.random's (before: each was a
# may-draw of "a name of 'numpy' that no API table describes", the
# numpy.* wildcard naming one level only).
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: numpy_submodules.py:[[@LINE+12]]:13: warning: generator 'np.random' (global) is used inside the per-example data-parallel region that starts at {{.*}}numpy_submodules.py:[[@LINE+18]]:1
# CHECK: 1 warning(s)
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Blur(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        v = np.random.rand(2, 2)
        sigma = np.dot(v, np.linalg.inv(v + np.eye(2)))
        spectrum = np.fft.fft2(sigma)
        return torch.from_numpy(np.abs(spectrum))


for x in DataLoader(Blur(), batch_size=2, num_workers=2):
    pass

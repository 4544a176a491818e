# scipy's file formats, image filters and special functions draw nothing
# (no generator in scipy.io, scipy.ndimage, scipy.special, scipy.misc
# outside their tests): a dataset reading a wav file (Tacotron 2's
# load_wav_to_torch) and an image (scipy.misc.imread, pytorch-semseg's
# loaders) and rotating by a random angle has one unsafe draw, the
# angle's (before: also a may-draw at each of read, imread, astype,
# rotate and expit). The rest of scipy stays
# code detc does not read: scipy.stats' samplers draw from numpy.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK-DAG: scipy_quiet_modules.py:[[@LINE+18]]:17: warning: generator 'np.random' (global) is used inside the per-example data-parallel region that starts at {{.*}}scipy_quiet_modules.py:[[@LINE+25]]:1
# CHECK-DAG: scipy_quiet_modules.py:[[@LINE+20]]:17: warning: may draw: 'stats.norm.rvs' calls code detc could not read
# CHECK: 2 warning(s)
import numpy as np
import torch
from scipy import ndimage, special, stats
from scipy.io.wavfile import read
import scipy.misc as m
from torch.utils.data import DataLoader, Dataset


class Clips(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        rate, data = read("clip%d.wav" % i)
        frame = m.imread("frame%d.png" % i).astype(np.float64)
        angle = np.random.uniform(-10, 10)
        image = ndimage.rotate(np.zeros((8, 8)), angle, reshape=False)
        weight = special.expit(data.mean())
        noise = stats.norm.rvs(size=4)
        return torch.from_numpy(image + frame), weight, noise


for x, w, n in DataLoader(Clips(), batch_size=2, num_workers=2):
    pass

# scikit-image's geometric transforms, file I/O, colour conversions and
# exposure are quiet (deterministic: no generator in their source), as
# simple-faster-rcnn resizes its images with skimage.transform.resize in
# its dataset (before: a may-draw at each call). Its probabilistic Hough
# transform samples with a numpy generator and stays code detc does not
# read, as the rest of scikit-image does.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: skimage_quiet_modules.py:[[@LINE+15]]:17: warning: may draw: 'probabilistic_hough_line' calls code detc could not read
# CHECK: 1 warning(s)
import numpy as np
import torch
from skimage import transform as sktsf
from skimage.transform import probabilistic_hough_line
from torch.utils.data import DataLoader, Dataset


class Resized(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        img = sktsf.resize(np.zeros((3, 8, 8)), (3, 4, 4), mode="reflect")
        lines = probabilistic_hough_line(img[0] > 0)
        return torch.from_numpy(img), len(lines)


for x, n in DataLoader(Resized(), batch_size=2, num_workers=2):
    pass

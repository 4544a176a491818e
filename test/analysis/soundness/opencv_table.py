# OpenCV is compiled: detc cannot read it. Its image kernels (api/cv2.api:
# colour conversion, flips, resizes, warps, lookup tables, histograms)
# draw from no generator, so calling them in a dataset is no finding
# (yolov4's and yolov5's augmentations made 14 and 60 "may draw" findings
# of them; BLIP's RandAugment 2 of cv2.calcHist);
# OpenCV's own random functions (cv2.randn) and sampling algorithms
# (cv2.kmeans with random centres), and any name the table leaves out,
# may still draw.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s
# CHECK-NOT: 'cv2.cvtColor'
# CHECK-NOT: 'cv2.LUT'
# CHECK: opencv_table.py:[[@LINE+23]]:9: warning: may draw: 'cv2.randn' calls code detc could not read, inside the per-example data-parallel region
# CHECK-NOT: 'cv2.flip'
# CHECK-NOT: 'cv2.warpAffine'
# CHECK-NOT: 'cv2.calcHist'
# CHECK: opencv_table.py:[[@LINE+24]]:24: warning: may draw: 'cv2.kmeans' calls code detc could not read
# CHECK-NOT: warning: may draw: 'cv2.
# CHECK: 2 warning(s)
import cv2
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Images(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        img = np.zeros((8, 8, 3), np.uint8)
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        lut = np.arange(256, dtype=np.uint8)
        img = cv2.merge([cv2.LUT(c, lut) for c in cv2.split(hsv)])
        noise = np.zeros((8, 8), np.float32)
        cv2.randn(noise, 0, 1)
        img = cv2.flip(img, 1)
        m = cv2.getRotationMatrix2D((4, 4), 10, 1.0)
        img = cv2.warpAffine(img, m, (8, 8))
        hist = cv2.calcHist([img], [0], None, [256], [0, 256])
        _, labels, _ = cv2.kmeans(noise.reshape(-1, 1), 2, None, (1, 10, 1.0),
                                  1, cv2.KMEANS_RANDOM_CENTERS)
        return torch.from_numpy(img), torch.from_numpy(labels)


for x, y in DataLoader(Images(), batch_size=2, num_workers=2):
    pass

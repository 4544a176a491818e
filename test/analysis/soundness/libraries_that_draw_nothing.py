# Calls into libraries inside the training loop that draw nothing, each
# read in the library's source: loguru's logger (YOLOX logs every
# iteration), munch's attribute dictionaries (stargan-v2 keeps its nets,
# optimizers and batches in Munch objects), scipy's matrix square root (the
# FID of GAN evaluations), scipy's assignment solver (lucidrains'
# diffusion pairs noise with images by `linear_sum_assignment` every
# step), numpy's strided views (`np.lib.stride_tricks.as_strided`, which
# scipy.signal.lfilter pads with), scipy's filters, interpolation and
# root finders (a speaker encoder's equal error rate every step:
# `brentq(lambda x: 1. - x - interp1d(fpr, tpr)(x), 0., 1.)`; a vocoder's
# `lfilter` pre-emphasis), scikit-learn's scores (its `roc_curve` for
# that error rate). Unresolved, each was a may-draw
# finding. The
# matrix logarithm still is: its norm estimate draws from numpy's global
# generator (scipy.sparse.linalg.onenormest), and so does a silhouette
# score of a sample (numpy's global generator picks it).
# RUN: detc analyze %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: libraries_that_draw_nothing.py:[[@LINE+32]]:15: warning: may draw: 'linalg.logm' calls code detc could not read
# CHECK: libraries_that_draw_nothing.py:[[@LINE+38]]:17: warning: may draw: 'silhouette_score' calls code detc could not read
# CHECK: 2 warning(s)
import numpy as np
import torch
import torch.nn as nn
from loguru import logger
from munch import Munch
from scipy import linalg
from scipy.interpolate import interp1d
from scipy.optimize import brentq, linear_sum_assignment
from scipy.signal import lfilter
from sklearn.metrics import roc_curve, silhouette_score
from torch.utils.data import DataLoader, TensorDataset


def main():
    torch.manual_seed(0)
    nets = Munch(generator=nn.Linear(4, 4))
    optims = Munch(generator=torch.optim.SGD(nets.generator.parameters(),
                                             lr=0.1))
    ds = TensorDataset(torch.randn(16, 4), torch.randn(16, 4))
    loader = DataLoader(ds, batch_size=4, shuffle=False)
    for i, (x, y) in enumerate(loader):
        inputs = Munch(x=x, y=y)
        loss = (nets.generator(inputs.x) - inputs.y).pow(2).mean()
        optims.generator.zero_grad()
        loss.backward()
        optims.generator.step()
        logger.info("iter {} loss {:.4f}", i, loss.item())
        cov = np.cov(x.numpy().T) + np.eye(4)
        root = linalg.sqrtm(cov)
        log = linalg.logm(cov)
        rows, cols = linear_sum_assignment(cov)
        windows = np.lib.stride_tricks.as_strided(cov, (2, 4), cov.strides)
        fpr, tpr = np.linspace(0, 1, 5), np.linspace(0, 1, 5) ** 2
        eer = brentq(lambda v: 1. - v - interp1d(fpr, tpr)(v), 0., 1.)
        emphasized = lfilter([1, -0.97], [1], x.numpy()[0])
        fpr, tpr, _ = roc_curve([0, 1, 1, 0], [0.1, 0.8, 0.7, 0.3])
        score = silhouette_score(cov, [0, 0, 1, 1], sample_size=3)
        logger.debug("{} {}", np.trace(root), np.trace(log))


if __name__ == "__main__":
    main()

import numpy as np


def jitter(x):
    return x + np.random.normal(0.0, 0.01, x.shape).astype(np.float32)

import numpy as np


class EasyDict(dict):
    pass


def jitter(x):
    return x + float(np.random.rand())

# Layers a config names, star-imported by ../../eval_config_layers.py.
import torch.nn as nn


def autopad(k, p=None):
    return k // 2 if p is None else p


class Plain(nn.Module):
    def __init__(self, c1, c2, k=1, act=True):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, 1, autopad(k))
        self.act = act if isinstance(act, nn.Module) else nn.Identity()

    def forward(self, x):
        return self.act(self.conv(x))


class Dropping(Plain):
    def forward(self, x):
        return nn.functional.dropout(self.act(self.conv(x)), 0.1)


class Conv(Plain):
    pass


class C3(Plain):
    pass


class SPP(Plain):
    pass


class SPPF(Plain):
    pass


class Focus(Plain):
    pass


class Ghost(Plain):
    pass


class GhostBottleneck(Plain):
    pass


class Bottleneck(Plain):
    pass


class BottleneckCSP(Plain):
    pass


class CrossConv(Plain):
    pass


class MixConv(Plain):
    pass


class Contract(Plain):
    pass


class Expand(Plain):
    pass


class Proto(Plain):
    pass


class Classify(Plain):
    pass


def make_divisible(x, d):
    return (x + d - 1) // d * d

import dnnlib

from . import augment


def run(model, loader):
    for x, y in loader:
        print(model(dnnlib.util.jitter(augment.flip(x))).sum())

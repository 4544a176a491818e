# The project's own logging helpers, beside the module importing the
# standard library's logging: not on sys.path, never imported by that
# name at run time.
import torch


class Noisy:
    def info(self, msg):
        print(msg, torch.rand(1))


def getLogger():
    return Noisy()

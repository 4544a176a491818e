import torch.nn as nn


# A class statement Python cannot parse, in a module only imported when
# another architecture is asked for.
class nn.BatchNorm2d(nn.BatchNorm2d):
    pass


def build(num_classes):
    return nn.Linear(48, num_classes)

from torchvision import models


def make_model(arch):
    return models.__dict__[arch]()

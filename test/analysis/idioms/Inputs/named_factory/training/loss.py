import torch


class GANLoss:
    def __init__(self, G, augment=None, mix=0.9):
        self.G = G
        self.augment = augment
        self.mix = mix

    def accumulate(self, z):
        img = self.G(z)
        if self.augment is not None:
            img = self.augment(img)
        return img.square().mean()

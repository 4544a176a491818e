"""Encoders a training script picks by name from this module's globals
(I-JEPA's src/models/vision_transformer.py shape): the module imports
functools.partial, itself one of its globals."""
from functools import partial

from torch import nn


class Encoder(nn.Module):
    def __init__(self, img_size=8, patch_size=2, drop_rate=0.1,
                 norm_layer=nn.LayerNorm):
        super().__init__()
        self.fc = nn.Linear(img_size, patch_size)
        self.norm = norm_layer(patch_size)
        self.drop = nn.Dropout(drop_rate)

    def forward(self, x):
        return self.drop(self.norm(self.fc(x)))


def vit_tiny(**kwargs):
    return Encoder(norm_layer=partial(nn.LayerNorm, eps=1e-6), **kwargs)


def vit_small(**kwargs):
    return Encoder(drop_rate=0.2, **kwargs)

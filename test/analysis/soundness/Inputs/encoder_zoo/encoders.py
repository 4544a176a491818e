"""Encoder builders a training script picks by name (MoCo v3's vits.py
shape): one draws in training mode, one does not."""
from torch import nn


def mlp_small(num_classes):
    return nn.Sequential(nn.Flatten(), nn.Linear(12, 16), nn.ReLU(),
                         nn.Dropout(0.2), nn.Linear(16, num_classes))


def linear(num_classes):
    return nn.Sequential(nn.Flatten(), nn.Linear(12, num_classes))

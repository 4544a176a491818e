"""The model for train.py: channel dropout on the image, a dropout before
the classifier. (No convolution: CPU convolutions are not bit-identical
across thread counts, which the determinism test also varies.)"""
import torch.nn as nn


class SmallNet(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.features = nn.Sequential(nn.Dropout2d(0.1), nn.Flatten(),
                                      nn.Linear(3 * 10 * 10, 32), nn.ReLU())
        self.classifier = nn.Sequential(nn.Dropout(0.3),
                                        nn.Linear(32, classes))

    def forward(self, x):
        return self.classifier(self.features(x))

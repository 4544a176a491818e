import torch.nn as nn


def _weights_init(m):
    if isinstance(m, nn.Linear):
        nn.init.zeros_(m.bias)


class ResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)
        self.apply(_weights_init)

    def forward(self, x):
        return self.fc(x)


def resnet20():
    return ResNet()

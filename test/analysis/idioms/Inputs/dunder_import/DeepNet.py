import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, width=4):
        super().__init__()
        self.fc = nn.Linear(width, width)

    def forward(self, z):
        return self.fc(z) + 0.01 * torch.randn_like(z)

# The default architecture (conditional_imports.py, --arch style).
import random
import torch
from torch import nn
class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
    def forward(self, x):
        if random.random() < 0.5:
            x = x * 2
        return self.fc(x)

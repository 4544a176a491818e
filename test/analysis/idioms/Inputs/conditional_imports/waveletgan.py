# The other architecture (conditional_imports.py, --arch wavelet).
import torch
from torch import nn
class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
    def forward(self, x):
        return self.fc(x + torch.randn_like(x))

import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, width=4):
        super().__init__()
        self.fc = nn.Linear(width, width)

    def forward(self, z):
        return F.dropout(self.fc(z), p=0.1, training=self.training)

import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.2))

    def forward(self, x):
        return self.body(x)

import torch.nn as nn

from ofa.utils import MyModule


class ConvLayer(MyModule):
    def __init__(self, width, dropout_rate=0.1):
        super().__init__()
        self.fc = nn.Linear(width, width)
        self.dropout = nn.Dropout(dropout_rate)

    def forward(self, x):
        return self.dropout(self.fc(x))

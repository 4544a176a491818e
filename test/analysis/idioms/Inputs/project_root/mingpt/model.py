import torch.nn as nn


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.1)
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        return self.head(self.drop(x))

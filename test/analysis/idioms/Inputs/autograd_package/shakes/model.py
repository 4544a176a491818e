import torch.nn as nn

from shakes.fn import Drop, Shake

drop = Drop.apply


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)

    def forward(self, x):
        return drop(Shake.apply(self.a(x), self.b(x), self.training))

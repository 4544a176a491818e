# A model module with a smoke test under its `__main__` guard, as
# RepDistiller's models/ShuffleNetv1.py has: imported, the block does not
# run, so `net` and the draw below are never made.
import torch
import torch.nn as nn


class ShuffleV1(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.fc = nn.Linear(8, num_classes)

    def forward(self, x):
        return self.fc(x)


if __name__ == '__main__':
    net = ShuffleV1(num_classes=100)
    x = torch.randn(2, 8)
    print(net(x).shape)
else:
    imported_as_module = True

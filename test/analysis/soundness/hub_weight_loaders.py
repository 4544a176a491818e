# A model picked by name among a module's globals (`globals()[arch]()`, as
# DeepLabV3Plus-Pytorch's `resnet.__dict__[backbone_name](...)`), where the
# module imports torch.hub's weight loader (from torchvision.models.utils
# first, where torchvision < 0.13 kept it): the loader is one of the
# candidates. It downloads a file and loads a dict of tensors, drawing
# nothing; it was "a name of 'torchvision' that no API table describes" and
# "code of 'torch.hub...' that detc does not read", and the forward of
# every model built so was a may-draw finding. torch.hub.load still is: it
# runs a repository's model code.
# RUN: detc analyze %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: hub_weight_loaders.py:[[@LINE+40]]:43: warning: may draw: 'extra' calls code detc could not read, inside the per-batch data-parallel region
# CHECK: 1 warning(s)
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.model_zoo import load_url

try:
    from torchvision.models.utils import load_state_dict_from_url
except ImportError:
    from torch.hub import load_state_dict_from_url


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc(x)


def net(pretrained=False):
    model = Net()
    if pretrained:
        model.load_state_dict(load_url("https://example.invalid/net.pth"))
    return model


def main(arch, hub):
    model = globals()[arch]()
    extra = torch.hub.load("owner/repo", "head") if hub else nn.Identity()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TensorDataset(torch.randn(16, 8),
                                      torch.randint(0, 2, (16,))),
                        batch_size=4)
    for x, y in loader:
        loss = F.cross_entropy(model(x) + extra(torch.zeros(4, 2)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main(sys.argv[1], len(sys.argv) > 2)

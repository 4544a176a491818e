# `packaging` (version comparisons in training code: DETR's util/misc.py
# checks torchvision's version before every interpolate) is quiet: its
# calls draw nothing, whether or not it is installed where detc looks.
# They were "may draw: calls code detc could not read" in every example.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK: 0 warning(s)
import torch
from packaging import version


class DS(torch.utils.data.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        x = torch.zeros(4)
        if version.parse(torch.__version__) < version.parse("1.7"):
            x = x + 1
        return x


loader = torch.utils.data.DataLoader(DS(), batch_size=2, num_workers=2)
for x in loader:
    pass

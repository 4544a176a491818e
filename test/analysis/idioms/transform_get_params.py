# A script's own transform that calls a torchvision transform's static
# get_params (DETR's RandomSizeCrop: `T.RandomCrop.get_params(img, [h, w])`
# then `F.crop`; the same in many detection and segmentation pipelines)
# draws from torch's global generator in the loader's workers. It was a
# "may draw: calls code detc could not read"; the tables now say it draws.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: may draw
# CHECK: transform_get_params.py:[[@LINE+15]]:18: warning: generator 'torch' (global) is used inside the per-example data-parallel region
# CHECK: transform_get_params.py:[[@LINE+15]]:17: warning: generator 'torch' (global) is used inside the per-example data-parallel region
# CHECK-NOT: may draw
# CHECK: 2 warning(s)
import torch
import torchvision.transforms as T
import torchvision.transforms.functional as F


class DS(torch.utils.data.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        img = torch.zeros(3, 32, 32)
        region = T.RandomCrop.get_params(img, [16, 16])
        angle = T.RandomRotation.get_params([-10.0, 10.0])
        return F.rotate(F.crop(img, *region), angle)


loader = torch.utils.data.DataLoader(DS(), batch_size=2, num_workers=2)
for x in loader:
    pass

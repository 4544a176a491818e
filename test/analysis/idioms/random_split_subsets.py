# The subsets random_split returns get their examples from the dataset it
# splits (table key `elements=`): a loader over one runs the dataset's
# __getitem__ per example. milesial/Pytorch-UNet trains on
# `train_set, val_set = random_split(dataset, ...)`: the dataset's
# examples were not analysed at all (an empty per-example region), and
# with the unknown-dataset check they would have been "a dataset made
# where detc cannot see". The split's own permutation draws from the
# generator it is given.
# RUN: detc analyze %s 2>&1 | FileCheck %s --implicit-check-not=may-draw
import torch
from torch.utils.data import DataLoader, Dataset, random_split


class Tiles(Dataset):
    def __len__(self):
        return 32

    def __getitem__(self, i):
        # CHECK: random_split_subsets.py:[[@LINE+1]]:21: warning: generator 'torch' (global) is used inside the per-example data-parallel region that starts at {{.*}}random_split_subsets.py:[[#LOOP:]]:1
        flip = bool(torch.rand(1) < 0.5)
        x = torch.arange(4.0)
        return (x.flip(0) if flip else x), i % 2


torch.manual_seed(0)
dataset = Tiles()
train_set, val_set = random_split(dataset, [24, 8],
                                  generator=torch.Generator().manual_seed(0))
loader = DataLoader(train_set, batch_size=4, shuffle=True, num_workers=2)
for x, y in loader:
    pass
more, _ = torch.utils.data.dataset.random_split(dataset, [16, 16])
for x, y in DataLoader(more, batch_size=4, num_workers=2):
    pass
# CHECK: 1 warning(s)

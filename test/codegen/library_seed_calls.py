# A library's call that seeds torch's, numpy's and random's generators at
# once (Lightning's seed_everything, transformers' and accelerate's
# set_seed) records its seed for the keyed streams of all three: the
# script's seed decides the streams, as torch.manual_seed's does. Before,
# the call was unknown code: the keyed streams ignored its value (seeded
# from 0 whatever the script asked) and the report said the script does
# not seed them (the transform seeding them itself).
# RUN: detc transform --emit-python --python none %s -o %t.py 2>&1 | FileCheck %s --check-prefix=REPORT --allow-empty
# REPORT-NOT: never seeds
# RUN: FileCheck %s < %t.py
import random
import sys

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Noisy(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return torch.randn(2) + np.random.rand() + random.random()


def main(which):
    if which == 0:
        import pytorch_lightning as pl
        # CHECK: {{^ +}}_detc_rt.seeding((1, 2, 3), pl.seed_everything)(7, workers=True)
        pl.seed_everything(7, workers=True)
    elif which == 1:
        from transformers import set_seed
        # CHECK: {{^ +}}_detc_rt.seeding((1, 2, 3), set_seed)(seed=11)
        set_seed(seed=11)
    else:
        from accelerate.utils import set_seed as seed_all
        # CHECK: {{^ +}}_detc_rt.seeding((1, 2, 3), seed_all)(13)
        seed_all(13)
    for x in DataLoader(Noisy(), batch_size=2, num_workers=2):
        pass


main(int(sys.argv[1]))

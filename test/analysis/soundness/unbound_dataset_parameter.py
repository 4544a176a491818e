# A module of functions whose callers live elsewhere (pytorch/examples'
# mnist_hogwild/train.py: `def train(rank, args, model, device, dataset,
# ...)` builds its DataLoader over the `dataset` it is given), analysed on
# its own: the dataset may be any dataset, so producing an example may
# draw, and the finding names the parameter nothing binds.
# RUN: detc analyze %s 2>&1 | FileCheck %s
from torch.utils.data import DataLoader


def train(model, dataset, optimizer):
    # CHECK: unbound_dataset_parameter.py:[[@LINE+2]]:25: warning: may draw: 'dataset' calls code detc could not read, inside the per-example data-parallel region
    # CHECK: note: 'dataset' is a dataset, parameter 'dataset' of 'train', bound to nothing detc sees (called from outside the program, or with arguments detc cannot trace): its __getitem__ may draw
    loader = DataLoader(dataset, batch_size=4, num_workers=2)
    for x, y in loader:
        optimizer.zero_grad()
        model(x).sum().backward()
        optimizer.step()

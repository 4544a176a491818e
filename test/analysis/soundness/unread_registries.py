# Datasets and models built through a registry of a library detc does not
# read (ResNeSt: `get_dataset(name)(root=...)` and `get_model(name)(...)`
# with fvcore's Registry, the model then wrapped in
# DistributedDataParallel): producing an example may run anything, and so
# may the wrapped model's forward. Before, the loader's per-example region
# was empty and the DDP wrapper forwarded only itself: detc reported
# nothing at all on ResNeSt's training script. A dataset or model detc
# knows adds nothing. The region named is the training loop's, where the
# wrapper's replicas run (it was the wrapper's own line).
# RUN: detc analyze %s 2>&1 | FileCheck %s --implicit-check-not=may-draw
import torch
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset
from fvcore.common.registry import Registry

MODELS = Registry("MODELS")
DATASETS = Registry("DATASETS")


def get_model(name):
    return MODELS.get(name)


def get_dataset(name):
    return DATASETS.get(name)


torch.manual_seed(0)
# CHECK-DAG: unread_registries.py:[[@LINE+3]]:33: warning: may draw: 'model' calls code detc could not read, inside the per-batch data-parallel region that starts at {{.*}}unread_registries.py:[[@LINE+12]]:1
# CHECK-DAG: note: 'model' is a model made where detc cannot see (a dynamic lookup, or a value of code detc does not read)
model = get_model("resnest50")(num_classes=10)
model = DistributedDataParallel(model)
# CHECK-DAG: unread_registries.py:[[@LINE+3]]:21: warning: may draw: 'trainset' calls code detc could not read, inside the per-example data-parallel region
# CHECK-DAG: note: 'trainset' is a dataset made where detc cannot see (a dynamic lookup, or a value of code detc does not read): its __getitem__ may draw
trainset = get_dataset("imagenet")(root=".")
loader = DataLoader(trainset, batch_size=4, num_workers=2)
known = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=4,
                   num_workers=2)
linear = DistributedDataParallel(torch.nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()
for (x,) in known:
    linear(x).sum().backward()
# CHECK: 2 warning(s)

# Data parallelism assembled from torch.nn.parallel's functions, as
# CenterNet's, WaveRNN's and Transformer-XL's data_parallel.py do:
# scatter the inputs, replicate the module, parallel_apply the replicas,
# gather the outputs. The replicas run the module's forward, so its dropout
# is a draw of the training loop; scatter and gather copy tensors. Each
# call was a may-draw of code detc could not read (4 per repository), and
# the dropout behind them was not found.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s --implicit-check-not=warning:
# CHECK: functional_data_parallel.py:[[@LINE+18]]:40: warning: generator 'torch' (global) is used inside the per-batch data-parallel region that starts at {{.*}}functional_data_parallel.py:[[@LINE+21]]:1
# CHECK: 1 warning(s)
import torch
import torch.nn as nn
from torch.nn.parallel.parallel_apply import parallel_apply
from torch.nn.parallel.replicate import replicate
from torch.nn.parallel.scatter_gather import gather, scatter
from torch.utils.data import DataLoader, TensorDataset


def data_parallel(module, x, device_ids):
    inputs = scatter(x, device_ids)
    replicas = replicate(module, device_ids[:len(inputs)])
    outputs = parallel_apply(replicas, inputs)
    return gather(outputs, device_ids[0])


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2)
for (x,) in loader:
    y = data_parallel(model, x, [0])
    opt.zero_grad()
    y.sum().backward()
    opt.step()

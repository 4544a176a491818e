# Draws torch makes inside its own code, where no per-example key reaches:
# dropout between an LSTM's layers and fractional max pooling's regions
# (a layer, and the functional). detc leaves them, names each with its
# own warning (detc-library-draw), and the transform is still written;
# every checkpoint restores torch's global generator they draw from.
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s
# RUN: FileCheck %s --check-prefix=OUT < %t.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.randn(16, 1, 8, 8)), batch_size=4)
# CHECK-DAG: library_draws.py:[[@LINE+1]]:41: warning: 'torch.nn.FractionalMaxPool2d' draws its random samples from torch's global generator inside torch: detc cannot key them per example; {{.*}} [detc-library-draw]
net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.FractionalMaxPool2d(2, output_ratio=0.5))
# CHECK-DAG: library_draws.py:[[@LINE+1]]:7: warning: 'torch.nn.LSTM' draws its dropout masks from torch's global generator inside torch{{.*}}(dropout=0 draws nothing) [detc-library-draw]
rnn = nn.LSTM(3, 3, num_layers=2, dropout=0.2)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for (x,) in loader:
    opt.zero_grad()
    # CHECK-DAG: library_draws.py:[[@LINE+1]]:14: warning: 'torch.nn.functional.fractional_max_pool2d' draws its random samples
    pooled = F.fractional_max_pool2d(x, 2, output_size=3)
    (net(x).sum() + pooled.sum() + rnn(x[:, 0])[0].sum()).backward()
    opt.step()
# OUT: nn.FractionalMaxPool2d(2, output_ratio=0.5)){{$}}
# OUT: pooled = F.fractional_max_pool2d(x, 2, output_size=3){{$}}

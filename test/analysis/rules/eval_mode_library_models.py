# Layers of libraries that draw only in training mode (`train_only` in the
# API tables): MoCo's linear evaluation trains a classifier on a frozen
# torchvision model chosen by name, after `model.eval()` (BatchNorm must
# not move), and a two-layer LSTM with dropout runs in evaluation mode too.
# Neither draws: no unsafe use. Without `model.eval()` (TRAINED) the
# model's forward may draw (any torchvision model: dropout, stochastic
# depth); without `rnn.eval()` (RNN) the LSTM's dropout between its layers
# does.
# RUN: detc %s --debug-info --python none | detc-opt --test-thread-safety -o /dev/null | FileCheck %s
# RUN: sed -e 's/^model.eval()$//' %s > %t.trained.py
# RUN: detc %t.trained.py --debug-info --python none | detc-opt --test-thread-safety -o /dev/null | FileCheck %s --check-prefix=TRAINED
# RUN: sed -e 's/^rnn.eval()$//' %s > %t.rnn.py
# RUN: detc %t.rnn.py --debug-info --python none | detc-opt --test-thread-safety -o /dev/null | FileCheck %s --check-prefix=RNN
# CHECK-NOT: unsafe:
# CHECK: ERR: {}
# TRAINED: unsafe: {{.*}}.py:[[@LINE+15]]:9 'torch' (global) in region {{.*}}.py:[[@LINE+29]]:5
# TRAINED-NOT: unsafe:
# RNN: unsafe: {{.*}}.py:[[@LINE+17]]:7 'torch' (global) in region {{.*}}.py:[[@LINE+27]]:5
# RNN-NOT: unsafe:
import argparse

import torch
import torchvision.models as models
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--arch", default="resnet18")
args = parser.parse_args()
torch.manual_seed(0)
model = models.__dict__[args.arch]()
for name, param in model.named_parameters():
    if not name.startswith("fc."):
        param.requires_grad = False
rnn = nn.LSTM(1000, 8, num_layers=2, dropout=0.3)
head = nn.Linear(8, 10)
opt = torch.optim.SGD(list(model.fc.parameters()) + list(head.parameters()),
                      lr=0.1)
loader = DataLoader(TensorDataset(torch.randn(16, 3, 32, 32),
                                  torch.randint(0, 10, (16,))),
                    batch_size=4, shuffle=True)
model.eval()
rnn.eval()
for epoch in range(2):
    for images, target in loader:
        features, _ = rnn(model(images).unsqueeze(0))
        loss = nn.functional.cross_entropy(head(features[0]), target)
        opt.zero_grad()
        loss.backward()
        opt.step()

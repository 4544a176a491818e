# apex is unread (`unread apex`: its fused dropout draws), but the layers
# api/apex.api describes are what the table says: Swin Transformer builds
# its LayerNorms from apex's FusedLayerNorm when apex is installed, and
# every norm call of the model was "may draw: calls code detc could not
# read" (9 findings on its main.py). So is apex's DistributedDataParallel, a
# wrapper whose call runs the wrapped model's forward (ViT-pytorch's
# `model = DDP(model)`: each call of the model was a may-draw). A name of
# apex no table describes (its fused dropout-add) still may draw.
# RUN: detc analyze --python none %s 2>&1 | FileCheck %s
# CHECK-NOT: may draw: 'norm_layer'
# CHECK-NOT: may draw: 'self.norm'
# CHECK: apex_fused_norm.py:[[@LINE+24]]:13: warning: may draw: 'fused_dropout_add' calls code detc could not read
# CHECK-NOT: may draw
# CHECK: 1 warning(s)
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

try:
    import apex as amp
    from apex.contrib.fused_dropout_add import fused_dropout_add
    from apex.parallel import DistributedDataParallel as DDP
    layernorm = amp.normalization.FusedLayerNorm
except ImportError:
    layernorm = nn.LayerNorm


class Block(nn.Module):
    def __init__(self, dim, norm_layer=nn.LayerNorm):
        super().__init__()
        self.norm = norm_layer(dim)
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        x = self.fc(self.norm(x))
        x = fused_dropout_add(x, x, 0.1, self.training)
        return x


model = DDP(Block(4, norm_layer=layernorm))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for (x,) in DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=2):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

# Parts of a model that a checkpoint's state dict restores, though the
# analysis saw them under other names: stages built as a local and
# appended to an `nn.ModuleList` (Swin Transformer's `layer =
# BasicLayer(...); self.layers.append(layer)`), a class passed as an
# argument that may be a library class detc cannot read (`norm_layer=`,
# with apex's fused layer norm behind a `try` import), and an encoder
# another module's constructor stores (`SimMIM(encoder=encoder)`). They
# are restored with the model: no sidecar entry, no refusal (the session-65
# first binary wrote no sidecar: "'layer' (of 'Net::__init__') must be
# saved but is not visible where the checkpoint is written").
# RUN: detc transform %s --emit-python -o %t.py 2>&1 | FileCheck %s --check-prefix=DIAG --allow-empty
# RUN: FileCheck %s < %t.py
# DIAG-NOT: detc writes no sidecar
# CHECK: {{^ *}}_detc_rt.checkpoint([[S:[0-9]+]], torch.save, None, loops=("epoch",))({"model": model.state_dict(), "opt": opt.state_dict()},
# CHECK: {{^ *}}if _detc_rt.restoring([[S]]):
# CHECK-NEXT: {{^ *}}_detc_ckpt = _detc_rt.user_checkpoint()
# CHECK-NEXT: {{^ *}}model.load_state_dict(_detc_ckpt["model"])
# CHECK-NEXT: {{^ *}}opt.load_state_dict(_detc_ckpt["opt"])
# CHECK-NEXT: {{^ *}}_detc_rt.resumed(
import sys

import torch
import torch.nn as nn


class Merge(nn.Module):
    def __init__(self, dim, norm_layer=nn.LayerNorm):
        super().__init__()
        self.norm = norm_layer(2 * dim)
        self.red = nn.Linear(2 * dim, dim)

    def forward(self, x):
        return self.red(self.norm(x.repeat(1, 2)))


class Stage(nn.Module):
    def __init__(self, dim, norm_layer=nn.LayerNorm, downsample=None):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.drop = nn.Dropout(0.1)
        self.norm = norm_layer(dim)
        if downsample is not None:
            self.downsample = downsample(dim, norm_layer=norm_layer)
        else:
            self.downsample = None

    def forward(self, x):
        x = self.drop(self.norm(self.fc(x)))
        if self.downsample is not None:
            x = self.downsample(x)
        return x


class Net(nn.Module):
    def __init__(self, dim=8, depth=3, norm_layer=nn.LayerNorm):
        super().__init__()
        self.layers = nn.ModuleList()
        for i in range(depth):
            layer = Stage(dim, norm_layer=norm_layer,
                          downsample=Merge if i < depth - 1 else None)
            self.layers.append(layer)
        self.head = nn.Linear(dim, 2)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


class Pretrain(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = nn.Linear(2, 8)

    def forward(self, x):
        return self.decoder(self.encoder(x))


def build(fused, pretrain):
    if fused:
        try:
            import apex as amp
            layernorm = amp.normalization.FusedLayerNorm
        except ImportError:
            layernorm = None
    else:
        layernorm = nn.LayerNorm
    if pretrain:
        encoder = Net(norm_layer=layernorm)
        model = Pretrain(encoder=encoder)
        return model
    model = Net(norm_layer=layernorm)
    return model


torch.manual_seed(0)
model = build("--fused" in sys.argv, "--pretrain" in sys.argv)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(torch.randn(32, 8),
                                   torch.randint(0, 2, (32,))),
    batch_size=8, shuffle=True)
for epoch in range(3):
    for xb, yb in loader:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()},
               "ck.pt")

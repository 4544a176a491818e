"""Swin Transformer's `models/` in small: `build_model` picks the layer
norm class (apex's fused one behind a `try` import, else `nn.LayerNorm`)
and passes classes as arguments (`norm_layer=`, `downsample=PatchMerging`);
each stage is a local appended to an `nn.ModuleList`; the pretraining path
builds an encoder that another module's constructor stores
(`SimMIM(encoder=encoder)`). The session-65 first binary gave the
checkpoint no sidecar: "'self.downsample' (of 'BasicLayer::__init__') must
be saved but is not visible where the checkpoint is written"."""
import torch.nn as nn


class PatchMerging(nn.Module):
    def __init__(self, dim, norm_layer=nn.LayerNorm):
        super().__init__()
        self.norm = norm_layer(2 * dim)
        self.reduction = nn.Linear(2 * dim, dim, bias=False)

    def forward(self, x):
        return self.reduction(self.norm(x.repeat(1, 2)))


class BasicLayer(nn.Module):
    def __init__(self, dim, drop=0.0, norm_layer=nn.LayerNorm,
                 downsample=None):
        super().__init__()
        self.fc = nn.Linear(dim, dim)
        self.drop = nn.Dropout(drop)
        self.norm = norm_layer(dim)
        if downsample is not None:
            self.downsample = downsample(dim, norm_layer=norm_layer)
        else:
            self.downsample = None

    def forward(self, x):
        x = x + self.drop(self.fc(self.norm(x)))
        if self.downsample is not None:
            x = self.downsample(x)
        return x


class SwinLike(nn.Module):
    def __init__(self, in_dim=6, dim=16, depth=3, num_classes=2, drop=0.2,
                 norm_layer=nn.LayerNorm):
        super().__init__()
        self.embed = nn.Linear(in_dim, dim)
        self.layers = nn.ModuleList()
        for i in range(depth):
            layer = BasicLayer(dim, drop=drop, norm_layer=norm_layer,
                               downsample=PatchMerging if i < depth - 1
                               else None)
            self.layers.append(layer)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        x = self.embed(x)
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


class SimMIM(nn.Module):
    def __init__(self, encoder, dim=16):
        super().__init__()
        self.encoder = encoder
        self.decoder = nn.Linear(2, dim)

    def forward(self, x):
        return self.decoder(self.encoder(x))


def build_model(fused_layernorm=False, is_pretrain=False):
    if fused_layernorm:
        try:
            import apex as amp
            layernorm = amp.normalization.FusedLayerNorm
        except ImportError:
            layernorm = None
    else:
        layernorm = nn.LayerNorm
    if is_pretrain:
        encoder = SwinLike(norm_layer=layernorm)
        model = SimMIM(encoder=encoder)
        return model
    model = SwinLike(norm_layer=layernorm)
    return model

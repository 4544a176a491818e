"""Model factories registered with timm (DeiT's `models_v2.py`): nothing
calls them by name; timm's `create_model(args.model)` looks them up in
its registry. The model's layer comes from a module detc cannot find,
whose forward may change the model."""
import torch.nn as nn
from timm.models.registry import register_model
from layers_not_installed import PatchEmbed


class Net(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.embed = PatchEmbed()
        self.body = nn.Sequential(nn.Linear(6, width), nn.GELU(),
                                  nn.Linear(width, 3))

    def forward(self, x):
        x = self.embed(x)
        return self.body(x)


@register_model
def net_tiny(pretrained=False, **kwargs):
    model = Net(16, **kwargs)
    return model


@register_model
def net_small(pretrained=False, **kwargs):
    model = Net(32, **kwargs)
    return model

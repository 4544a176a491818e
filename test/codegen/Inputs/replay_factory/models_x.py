"""Model factories (timm's and DeiT's registered `deit_tiny_patch16_224`,
MAE's `mae_vit_base_patch16`): the model is built in the factory and
returned. Its layer comes from a module detc cannot find, whose forward
may change the model."""
import torch.nn as nn
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


def net_small(**kwargs):
    model = Net(16, **kwargs)
    return model

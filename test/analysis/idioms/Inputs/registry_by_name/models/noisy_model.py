import torch
import torch.nn as nn

from models.base_model import BaseModel


class NoisyModel(BaseModel):
    def __init__(self, opt):
        super().__init__(opt)
        self.net = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5))
        self.opt_net = torch.optim.SGD(self.net.parameters(), lr=0.1)

    def set_input(self, batch):
        self.x = batch["A"]

    def optimize_parameters(self):
        self.opt_net.zero_grad()
        self.net(self.x + 0.1 * torch.randn_like(self.x)).sum().backward()
        self.opt_net.step()

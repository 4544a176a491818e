# detc-optimizer-not-on-model through a trainer object (the shape of
# ikostrikov/pytorch-a2c-ppo-acktr-gail's PPO): the optimizer is built in
# the trainer's __init__ over the parameters of the model it is given
# (`actor_critic`), the loop runs the model the trainer keeps
# (`self.actor_critic.evaluate(x)`, whose forward is `self.base`'s). The
# model run is a part of the one the optimizer updates: silent (it was
# reported, naming `self.base.main`). Building the optimizer over another
# model (the target network) is reported.
# RUN: detc analyze %s --python none --werror 2>&1 | FileCheck %s --check-prefix=OK
# RUN: sed -e 's/optim.Adam(actor_critic.parameters()/optim.Adam(target.parameters()/' %s > %t.wrong.py
# RUN: not detc analyze %t.wrong.py --python none --werror 2>&1 | FileCheck %s --check-prefix=WRONG
# OK: 0 warning(s)
# WRONG: warning: this optimizer step updates the parameters of `target` {{.*}}[detc-optimizer-not-on-model]
import torch
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset


class MLPBase(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(n, n), nn.Tanh())

    def forward(self, x):
        return self.main(x)


class Policy(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.base = MLPBase(n)

    def evaluate(self, x):
        return self.base(x).sum()


class PPO:
    def __init__(self, actor_critic, target, lr):
        self.actor_critic = actor_critic
        self.target = target
        self.optimizer = optim.Adam(actor_critic.parameters(), lr=lr)

    def update(self, loader):
        for (x,) in loader:
            loss = self.actor_critic.evaluate(x)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()


actor_critic = Policy(4)
target = Policy(4)
agent = PPO(actor_critic, target, 0.01)
agent.update(DataLoader(TensorDataset(torch.ones(8, 4)), batch_size=2))

# A training loop whose losses are closures reading the model of the
# enclosing function (spinningup's PPO, SAC, TD3 and VPG: `compute_loss_pi`
# runs `ac.pi`, stepped by an optimizer over `ac.pi.parameters()`). The
# closure's forward names its model `^ac.pi`, which was matched to none of
# the caller's variables: each optimizer was reported as over a model the
# loop never runs. The broken variant, whose actor optimizer is built over
# a model the loop never runs, is still found.
# RUN: detc analyze %s --werror
# RUN: sed -e 's/pi_opt = Adam(ac.pi.parameters())/pi_opt = Adam(baseline.parameters())/' %s > %t.broken.py
# RUN: not detc analyze %t.broken.py --werror 2>&1 | FileCheck %s
# CHECK: warning: this optimizer step updates the parameters of `baseline` (the optimizer built at line {{[0-9]+}}), but the training loop's forward runs `ac.pi`
# CHECK: 1 warning(s)
import torch
import torch.nn as nn
from torch.optim import Adam


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.logits_net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(),
                                        nn.Linear(8, 2))

    def forward(self, obs):
        return self.logits_net(obs)


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = Actor()
        self.v = nn.Linear(4, 1)


def train(actor_critic=ActorCritic, iters=3):
    ac = actor_critic()
    baseline = nn.Linear(4, 2)
    pi_opt = Adam(ac.pi.parameters())
    v_opt = Adam(ac.v.parameters())

    def compute_loss_pi(obs):
        return ac.pi(obs).logsumexp(-1).mean()

    def compute_loss_v(obs):
        return (ac.v(obs) ** 2).mean()

    obs = torch.randn(5, 4)
    for epoch in range(3):
        for i in range(iters):
            pi_opt.zero_grad()
            compute_loss_pi(obs).backward()
            pi_opt.step()
        for i in range(iters):
            v_opt.zero_grad()
            compute_loss_v(obs).backward()
            v_opt.step()


if __name__ == "__main__":
    train(actor_critic=ActorCritic)

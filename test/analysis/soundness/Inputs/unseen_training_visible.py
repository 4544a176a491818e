# A script that sets up through code detc cannot read but trains in its
# own loop (unseen_training.py): the training is visible.
import torch
import confkit

config = confkit.parse_args()
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(config.steps):
    x = torch.randn(8, 4)
    opt.zero_grad()
    model(x).pow(2).mean().backward()
    opt.step()

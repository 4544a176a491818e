"""A TRADES-style adversarial loss and a random rescaling, in a local
module the training script imports (the shape of public adversarial-
training repositories): both draw from the global generators (torch's and
numpy's) once per batch, outside any DataLoader."""
import numpy as np
import torch
import torch.nn.functional as F


def trades_loss(model, x, y, step_size=0.01, epsilon=0.03, steps=2,
                beta=1.0):
    model.eval()
    x_adv = x.detach() + 0.001 * torch.randn(x.shape)
    for _ in range(steps):
        x_adv.requires_grad_()
        loss_kl = F.kl_div(F.log_softmax(model(x_adv), dim=1),
                           F.softmax(model(x), dim=1), reduction="sum")
        grad = torch.autograd.grad(loss_kl, [x_adv])[0]
        x_adv = x_adv.detach() + step_size * torch.sign(grad.detach())
        x_adv = torch.min(torch.max(x_adv, x - epsilon), x + epsilon)
    model.train()
    logits = model(x)
    robust = F.kl_div(F.log_softmax(model(x_adv), dim=1),
                      F.softmax(logits, dim=1), reduction="batchmean")
    return F.cross_entropy(logits, y) + beta * robust


def random_scale(x):
    return x * float(np.random.uniform(0.9, 1.1))

"""MAE's `engine_pretrain.py` in small: the training loop."""
import torch.nn.functional as F


def train_one_epoch(model, data_loader, optimizer, epoch):
    model.train(True)
    for data_iter_step, (samples, targets) in enumerate(data_loader):
        loss = F.cross_entropy(model(samples), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return {'epoch': epoch}

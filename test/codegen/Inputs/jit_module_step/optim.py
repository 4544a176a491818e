import torch


class ScheduledOptim:
    def __init__(self, model, warmup):
        self._optimizer = torch.optim.Adam(model.parameters())
        self.warmup = warmup
        self.current_step = 0

    def step_and_update_lr(self):
        self.current_step += 1
        for group in self._optimizer.param_groups:
            group["lr"] = min(self.current_step ** -0.5,
                              self.current_step * self.warmup ** -1.5)
        self._optimizer.step()

    def zero_grad(self):
        self._optimizer.zero_grad()

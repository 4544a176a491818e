import torch


class Shake(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x1, x2, training=True):
        alpha = torch.rand(x1.size(0), 1) if training else 0.5
        return alpha * x1 + (1 - alpha) * x2

    @staticmethod
    def backward(ctx, grad):
        beta = torch.rand(grad.size(0), 1)
        return beta * grad, (1 - beta) * grad, None


class Drop(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * torch.bernoulli(torch.full_like(grad, 0.5))

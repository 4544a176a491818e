# A custom optimizer written as timm's (AdamW, Adopt, SGDW, Lion): it
# subclasses torch.optim.optimizer.Optimizer and its step calls the helpers
# of torch's own optimizers (grouping tensors by device and dtype, the
# CUDA-graph capture check, picking foreach kernels) and asks
# torch.compiler.is_compiling(). Each was a name of torch no table
# described: "may draw" in every training step.
# RUN: detc analyze %s 2>&1 | FileCheck %s
# CHECK-NOT: warning:
# CHECK: 0 warning(s)
import torch
from torch.optim.optimizer import Optimizer, _default_to_fused_or_foreach


class SignSGD(Optimizer):
    def __init__(self, params, lr=0.01):
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self, closure=None):
        self._cuda_graph_capture_health_check()
        for group in self.param_groups:
            params = [p for p in group["params"] if p.grad is not None]
            if not params:
                continue
            grouped = Optimizer._group_tensors_by_device_and_dtype(
                [params, [p.grad for p in params]])
            _, foreach = _default_to_fused_or_foreach(params, False, False)
            if torch.compiler.is_compiling() or not foreach:
                for p in params:
                    p.add_(p.grad.sign(), alpha=-group["lr"])
            else:
                for (ps, gs), _ in grouped.values():
                    torch._foreach_add_(ps, [g.sign() for g in gs],
                                        alpha=-group["lr"])


model = torch.nn.Linear(4, 2)
opt = SignSGD(model.parameters())
for x in torch.utils.data.DataLoader(torch.randn(8, 4), batch_size=2):
    opt.zero_grad()
    model(x).sum().backward()
    opt.step()

"""A training loop instrumented as `detc transform --check` emits it
(trace.api around the model's forward and the optimizer's calls,
trace.step at each step), checking the invariants file argv[1] without a
trace file. argv[2] names the fault injected at step 2 (none: a correct
run). test_runtime.DirectCheckTest reads the violations on stderr."""
import sys

import torch

import detc_runtime as rt

rt.trace.enable(None, check=sys.argv[1])
fault = sys.argv[2]
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
api = rt.trace.api
batches = [torch.randn(6, 4) for _ in range(5)]
for step, x in enumerate(batches):
    rt.trace.step(1, 0)
    if step == 2:
        if fault == "float64":
            model.double()
            x = x.double()
        elif fault == "nan":
            x = x.clone()
            x[3, 1] = float("nan")
        elif fault == "inf":
            x = x.clone()
            x[0, 0] = float("inf")
        elif fault == "same_batch":
            x = batches[1]
        elif fault == "frozen":
            model[0].weight.requires_grad_(False)
        elif fault == "lr":
            opt.param_groups[0]["lr"] = 0.05
        elif fault == "no_zero_grad":
            pass
    if not (fault == "no_zero_grad" and step == 2):
        api(2, "zero_grad", "optimizer.zero_grad", opt.zero_grad, opt)()
    out = api(3, "forward", "forward:model", model)(x)
    loss = out.float().pow(2).mean()
    api(4, "backward", "backward", loss.backward, loss)()
    api(5, "step", "optimizer.step", opt.step, opt)()
    if fault == "float64":
        model.float()

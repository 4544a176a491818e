"""A training loop instrumented as `detc transform --check` emits it
(trace.api around the model's forward and the optimizer's calls,
trace.step at each step), checking the invariants file argv[1] without a
trace file. argv[2:] name the faults injected at step 2 (none: a correct
run), one run each. test_runtime.DirectCheckTest reads the violations on
stderr.

Each run is a child forked after torch is imported, with the checker
enabled only in the child, so it starts as a fresh `python3
checked_train.py INVARIANTS FAULT` would (importing torch costs 2-4 s,
more than the eight runs together). The parent writes `== FAULT exit N`
on stderr after each child's own lines."""
import os
import sys

import torch

import detc_runtime as rt

try:
    # torch 2.x: the first optimizer imports torch's compiler
    # (add_param_group is dynamo-disabled), another 1.5 s per run.
    import torch._dynamo  # noqa: F401
except ImportError:
    pass


def train(invariants, fault):
    rt.trace.enable(None, check=invariants)
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


def main():
    invariants = sys.argv[1]
    for fault in sys.argv[2:]:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                train(invariants, fault)
            except BaseException as error:  # reported, as a script would
                import traceback
                traceback.print_exc()
                code = error.code if isinstance(error, SystemExit) else 1
            # The runtime's atexit handlers (the checker's flush) run at
            # a normal exit; os._exit would skip them.
            sys.stderr.flush()
            sys.exit(code)
        _, status = os.waitpid(pid, 0)
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else \
            os.WEXITSTATUS(status)
        print("== %s exit %d" % (fault, code), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()

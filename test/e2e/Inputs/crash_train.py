"""A small training job with one injected fault per --case (test/e2e/
crash_recovery.py): the transformed script recovers in situ; the same
script with --fixed (the fault never happens, or its fix is applied from
the start) must end with the same weights and counters."""
import argparse
import os

import numpy as np
import torch
import torch.distributed as dist
import torch.nn.functional as F

lr = 0.1  # a module global a local of main() shadows
FLAKY = {}  # case -> faults still to inject (transient errors)
CACHE = []


def scaled_lr():
    # Must see the module's lr, never main()'s local of the same name.
    return lr * 0.5


def log_loss(loss, case, fixed):
    if case == "api_index" and not fixed:
        return loss.data[0]  # IndexError on a 0-dim tensor
    return loss.item()


def features(x, case, fixed):
    if case == "shape_view" and not fixed:
        return x.view(x.size(0), 5)  # the input has 4 features
    if case == "helper_skip":
        # A sanity check in a helper the loop calls (no loop here: `skip`
        # skips the caller's iteration).
        assert x.abs().max() < 100, "outlier in the batch"
    return x.view(x.size(0), -1)


class Faults:
    """Transient faults, as a library raises them: once, the first time
    `where` is reached (a method, so not vaccinated: the statement that
    called it is the one retried)."""

    def hit(self, case, where):
        if FLAKY.get(case) != where:
            return
        del FLAKY[case]
        if where == "allreduce":
            raise RuntimeError("[/gloo/transport/tcp/pair.cc:598] "
                               "Connection closed by peer [127.0.0.1]:1234")
        if where == "save":
            raise TimeoutError("NFS server storage1 not responding, timed out")
        raise ConnectionResetError("Connection reset by peer (%s)" % where)

    def device(self, case, device):
        """A device another job holds."""
        if case == "device_busy" and device != "cpu":
            raise RuntimeError("CUDA error: all CUDA-capable devices are busy "
                               "or unavailable")

    def plateau(self, case, model, epoch):
        """A check the job makes: from the second epoch on it wants
        stronger dropout (the fix builds a new layer, whose draws must be
        keyed as the script's own)."""
        if case == "action_layer" and epoch == 1 and model.drop.p < 0.5:
            raise RuntimeError("loss plateau: dropout %.2f is too weak"
                               % model.drop.p)


FAULTS = Faults()
# A layer at the module's top level that the model uses in one case; a
# surgery file rebuilds it (its draws keyed as the script's own).
HEAD_DROP = torch.nn.Dropout(0.2)


class Net(torch.nn.Module):
    def __init__(self, case, fixed=False):
        super().__init__()
        self.case, self.fixed = case, fixed
        self.fc1 = torch.nn.Linear(4, 16)
        self.drop = torch.nn.Dropout(0.25)
        self.fc2 = torch.nn.Linear(16, 3)

    def forward(self, x):
        h = self.drop(torch.relu(self.fc1(x)))
        # After the dropout drew: a retry must draw the same mask.
        FAULTS.hit(self.case, "forward")
        if self.case == "class_surgery" and not self.fixed:
            h = h.view(-1, 5)  # a refactoring's leftover
        if self.case == "class_surgery":
            h = HEAD_DROP(F.dropout(h, 0.1, self.training))
        return self.fc2(h)


def allocate(cache, n, budget):
    """A caching allocator with a memory budget, as a GPU has."""
    if sum(t.numel() for t in cache) + n > budget:
        raise RuntimeError("CUDA out of memory. Tried to allocate %d floats "
                           "(budget %d)" % (n, budget))
    t = torch.zeros(n)
    cache.append(t)
    return t


def all_reduce_grads(model, case):
    FAULTS.hit(case, "allreduce")
    for p in model.parameters():
        dist.all_reduce(p.grad)


def save(state, path, case):
    FAULTS.hit(case, "save")
    torch.save(state, path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", default="none")
    parser.add_argument("--fixed", action="store_true")
    parser.add_argument("--work", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    case, fixed = args.case, args.fixed
    if not fixed:
        FLAKY[case] = {"allreduce_flaky": "allreduce", "save_flaky": "save",
                       "break_in_with": "with", "callee_loop": "hook",
                       "shadowing": "shadow", "nested_default": "nested",
                       "try_finally": "try",
                       "forward_flaky": "forward"}.get(case)
    dist.init_process_group("gloo", init_method="file://" + os.path.join(
        args.work, "pg"), rank=int(os.environ.get("RANK", "0")),
        world_size=int(os.environ.get("WORLD_SIZE", "1")))

    torch.manual_seed(0)
    model = Net(case, fixed)
    lr = 0.05  # shadows the module's lr
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    data = torch.randn(64, 4)
    labels = torch.randint(0, 3, (64,))
    if case == "target_dtype" and not fixed:
        labels = labels.float()  # cross_entropy needs class indices
    skip = set()
    if case == "nan_batch":
        if fixed:
            skip = {2}
        else:
            data[20, 1] = float("nan")
    if case == "label_range":
        if fixed:
            skip = {4}
        else:
            labels[37] = 7
    if case == "helper_skip":
        if fixed:
            skip = {5}
        else:
            data[44, 0] = 1e6
    ckpt_dir = os.path.join(args.work, "ckpt")
    if case == "missing_dir" and not fixed:
        ckpt_dir = os.path.join(args.work, "not", "there")
    else:
        os.makedirs(ckpt_dir, exist_ok=True)
    table = os.path.join(args.work, "table.npy")
    # Written whole, then renamed: the two ranks of the DDP case share the
    # directory, and one must never read the other's half-written file.
    partial = "%s.%d.tmp.npy" % (table, os.getpid())
    np.save(partial, np.arange(3, dtype=np.float32))
    os.replace(partial, table)
    table_path = table + (".missing" if case == "missing_file"
                          and not fixed else "")
    device = "cuda:0" if case in ("no_cuda", "device_busy") and not fixed \
        else "cpu"
    workspace = (1 << 42) if case == "oom_alloc" and not fixed else 256
    budget = 4096 if case == "oom_cache" and not fixed else 1 << 20
    extra = torch.zeros(8 if case == "cat_mismatch" and not fixed else 0, 3)
    # A bug in main() itself, fixed by a surgery on the running main().
    target_shape = (-1, 1) if case == "main_typo" and not fixed else (-1,)
    counters = {"finally": 0, "hooks": 0, "batches": 0, "stopped": -1}
    hooks = [lambda: counters.__setitem__("hooks", counters["hooks"] + 1),
             lambda: FAULTS.hit(case, "hook")]

    def make_decay(lr):
        def decay(group, rate=lr):  # a default that refers to a parameter
            FAULTS.hit(case, "nested")
            group["lr"] = rate
        return decay

    for epoch in range(2):
        weights = torch.tensor(np.load(table_path))
        for b in range(8):
            if b in skip:
                continue
            FAULTS.device(case, device)
            FAULTS.plateau(case, model, epoch)
            x = data[b * 8:(b + 1) * 8].to(device)
            y = labels[b * 8:(b + 1) * 8].view(target_shape)
            work = torch.empty(workspace)
            allocate(CACHE, 512, budget)
            out = model(features(x, case, fixed))
            out = torch.cat([out, extra]) if extra.numel() else out
            loss = F.cross_entropy(out, y, weight=weights + 1)
            if not torch.isfinite(loss):
                raise FloatingPointError("loss is %s at batch %d" % (loss, b))
            opt.zero_grad()
            loss.backward()
            all_reduce_grads(model, case)
            opt.step()
            log_loss(loss, case, fixed)
            try:
                FAULTS.hit(case, "try")
                counters["batches"] += 1
            finally:
                counters["finally"] += 1
            for hook in hooks:
                hook()
            with torch.no_grad():
                FAULTS.hit(case, "with")
                if epoch == 1 and b == 6:
                    counters["stopped"] = b
                    break
        for group in opt.param_groups:
            make_decay(lr * 0.5)(group)
        FAULTS.hit(case, "shadow")
        counters["lr"] = scaled_lr()
        save({"model": model.state_dict(), "epoch": epoch},
             os.path.join(ckpt_dir, "last.pt"), case)
        if case == "action_layer" and fixed and epoch == 0:
            # After the failing statement, so that the action's layer
            # (placed before it) is the first of its text in main().
            model.drop = torch.nn.Dropout(0.5)
    torch.save({"model": model.state_dict(), "counters": counters,
                "work": work.numel()}, args.out)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Static ⊇ dynamic: every random draw a program really makes inside a
data-parallel region is one `detc analyze` reports (docs/audit.md).

A generator writes small training programs, each a random combination of
the idioms real repositories use to reach a draw (a method defined below
its caller, a callable object, transforms in a list called in a loop or
through map(lambda), a dict of functions looked up by key, getattr with a
computed name, a closure kept in a global, a torchvision Compose of the
program's callables; code of a library the program imports, written to a
site-packages folder of its own and read by the analysis from source; a
dropout layer, F.dropout, noise in the step or in a helper; loops over
the loader, enumerate(loader), tqdm(loader), a
generator that yields its batches, next() in a while loop), with one of six
draw functions each. Each program is analysed (`detc analyze
--format=json`) and run (`detc audit --format=json`, 2 batches, torch's,
numpy's and random's drawing functions wrapped). Every line the audit
saw draw per example or per batch must be a finding's line, or a line its
notes say the draw was reached through (a layer's dropout is reported
where the layer is built, reached through the line that calls it) — of
rule detc-unsafe-rng or detc-may-draw. A draw the analysis misses fails
the test with the program kept for reading.

Also printed: the static findings no run drew (an over-approximation, or
a path 2 batches did not take); they do not fail the test.

Programs are audited from one interpreter that imported torch once, each
in a forked child (audit_forks.py): a few hundred take about a minute on
two cores. CI runs a fixed list of seeds and one that changes every day
(`--rotating`: the seed is printed, and rerunning with `--seeds` and that
seed on any day gives the same programs). The summary gives recall (drawn
lines a finding covers) and precision (findings some run drew: the rest
over-approximate, or are on paths 2 batches did not take).

usage: static_covers_dynamic.py --detc DETC [--python PY] [--seeds S,...]
       [--rotating] [--programs N] [--keep DIR]
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

DRAWS = ["random.random()", "np.random.rand()", "float(torch.rand(1))",
         "random.gauss(0.0, 1.0)", "np.random.normal()",
         "torch.randn(1).item()"]

# Per-example idioms: (name, module-level code, __init__ lines,
# __getitem__ lines, methods). `{d}` is the draw.
EXAMPLE_IDIOMS = {
    "direct": ("", [], ["x = x + {d}"], ""),
    "method_below": ("", [], ["x = self.augment(x)"],
                     "    def augment(self, x):\n"
                     "        return x + {d}\n"),
    "callable_object": ("class Jitter{n}:\n"
                        "    def __call__(self, x):\n"
                        "        return x + {d}\n",
                        ["self.jitter{n} = Jitter{n}()"],
                        ["x = self.jitter{n}(x)"], ""),
    "list_loop": ("def shift{n}(x):\n"
                  "    return x + {d}\n",
                  ["self.steps{n} = [abs, shift{n}]"],
                  ["for step in self.steps{n}:", "    x = step(x)"], ""),
    "map_lambda": ("def scale{n}(x):\n"
                   "    return x * {d}\n",
                   ["self.parts{n} = [scale{n}]"],
                   ["x = list(map(lambda t: t(x), self.parts{n}))[-1]"], ""),
    "dict_lookup": ("def noise{n}(x):\n"
                    "    return x + {d}\n\n\n"
                    "def keep{n}(x):\n"
                    "    return x\n\n\n"
                    "STEPS{n} = {{'noise': noise{n}, 'keep': keep{n}}}\n",
                    ["self.mode{n} = 'noise'"],
                    ["x = STEPS{n}[self.mode{n}](x)"], ""),
    "getattr_name": ("", ["self.kind{n} = 'a'"],
                     ["x = getattr(self, 'aug{n}_' + self.kind{n})(x)"],
                     "    def aug{n}_a(self, x):\n"
                     "        return x + {d}\n\n"
                     "    def aug{n}_b(self, x):\n"
                     "        return x\n"),
    "global_closure": ("def make_aug{n}(strength):\n"
                       "    def aug(x):\n"
                       "        return x + strength * {d}\n"
                       "    return aug\n\n\n"
                       "AUG{n} = make_aug{n}(0.1)\n",
                       [], ["x = AUG{n}(x)"], ""),
    "random_apply": ("class Tint{n}:\n"
                     "    def __call__(self, x):\n"
                     "        return x + {d}\n",
                     ["self.maybe{n} = T.RandomApply([Tint{n}()], p=0.5)"],
                     ["x = self.maybe{n}(x)"], ""),
    "choice_of_callables": ("def up{n}(x):\n"
                            "    return x + {d}\n\n\n"
                            "def down{n}(x):\n"
                            "    return x - {d}\n",
                            ["self.options{n} = [up{n}, down{n}]"],
                            ["x = random.choice(self.options{n})(x)"], ""),
    "partial": ("def add_noise{n}(scale, x):\n"
                "    return x + scale * {d}\n",
                ["self.noisy{n} = functools.partial(add_noise{n}, 0.1)"],
                ["x = self.noisy{n}(x)"], ""),
    "class_attribute": ("class Blur{n}:\n"
                        "    def __call__(self, x):\n"
                        "        return x * {d}\n",
                        [], ["x = self.blur{n}(x)"],
                        "    blur{n} = Blur{n}()\n"),
    "static_method": ("", [], ["x = Data.wiggle{n}(x)"],
                      "    @staticmethod\n"
                      "    def wiggle{n}(x):\n"
                      "        return x + {d}\n"),
    "nested_function": ("", [], ["def jitter{n}(v):",
                                 "    return v + {d}", "x = jitter{n}(x)"],
                        ""),
    "lambda_in_dict": ("", ["self.ops{n} = {{'n': lambda v: v + {d}}}"],
                       ["x = self.ops{n}['n'](x)"], ""),
    "factory_transform": ("class Shift{n}:\n"
                          "    def __call__(self, x):\n"
                          "        return x + {d}\n\n\n"
                          "def make_transform{n}():\n"
                          "    return Shift{n}()\n",
                          ["self.t{n} = make_transform{n}()"],
                          ["x = self.t{n}(x)"], ""),
    "globals_lookup": ("def shift{n}_a(x):\n"
                       "    return x + {d}\n",
                       ["self.which{n} = 'a'"],
                       ["x = globals()['shift{n}_' + self.which{n}](x)"], ""),
    "decorated": ("def traced{n}(fn):\n"
                  "    def wrapper(*args, **kwargs):\n"
                  "        return fn(*args, **kwargs)\n"
                  "    return wrapper\n\n\n"
                  "@traced{n}\n"
                  "def noisy{n}(x):\n"
                  "    return x + {d}\n",
                  [], ["x = noisy{n}(x)"], ""),
    "inherited_hook": ("class Hooks{n}:\n"
                       "    def hook{n}(self, x):\n"
                       "        return x + {d}\n",
                       [], ["x = self.hook{n}(x)"], "", "Hooks{n}"),
    "own_compose": ("class Chain{n}:\n"
                    "    def __init__(self, steps):\n"
                    "        self.steps = steps\n\n"
                    "    def __call__(self, x):\n"
                    "        for step in self.steps:\n"
                    "            x = step(x)\n"
                    "        return x\n\n\n"
                    "def bump{n}(x):\n"
                    "    return x + {d}\n",
                    ["self.chain{n} = Chain{n}([abs, bump{n}])"],
                    ["x = self.chain{n}(x)"], ""),
    "super_call": ("class BaseAug{n}:\n"
                   "    def __call__(self, x):\n"
                   "        return x + {d}\n\n\n"
                   "class MoreAug{n}(BaseAug{n}):\n"
                   "    def __call__(self, x):\n"
                   "        return super().__call__(x) * 2\n",
                   ["self.more{n} = MoreAug{n}()"],
                   ["x = self.more{n}(x)"], ""),
    "optional_transform": ("class Dim{n}:\n"
                           "    def __call__(self, x):\n"
                           "        return x * {d}\n",
                           ["self.transform{n} = Dim{n}()"],
                           ["x = self.transform{n}(x) if self.transform{n} "
                            "else x"], ""),
    "dict_values": ("def lift{n}(x):\n"
                    "    return x + {d}\n",
                    ["self.table{n} = {{'lift': lift{n}}}"],
                    ["for fn in self.table{n}.values():",
                     "    x = fn(x)"], ""),
    "zip_probabilities": ("def spin{n}(x):\n"
                          "    return -x + {d}\n",
                          ["self.fns{n} = [spin{n}]",
                           "self.probs{n} = [1.0]"],
                          ["for fn, p in zip(self.fns{n}, self.probs{n}):",
                           "    if random.random() < p:",
                           "        x = fn(x)"], ""),
    "np_choice_callable": ("def tilt{n}(x):\n"
                           "    return x + {d}\n",
                           ["self.pick{n} = [tilt{n}]"],
                           ["x = self.pick{n}[np.random.randint(1)](x)"],
                           ""),
    "library_base_class": ("import {p}\n", ["self.lib{n} = {p}.Flip()"],
                           ["x = self.lib{n}(x)"], ""),
    "library_registry": ("from {p}.ops import apply as lib_apply{n}\n", [],
                         ["x = lib_apply{n}('jitter', x)"], ""),
    "library_chain": ("import {p}\n\n\n"
                      "def user_noise{n}(x):\n"
                      "    return x + {d}\n",
                      ["self.chain{n} = {p}.Chain([user_noise{n}])"],
                      ["x = self.chain{n}(x)"], ""),
    # A helper returning a (callable, probability) pair, unpacked.
    "tuple_return": ("def noise{n}(x):\n"
                     "    return x + {d}\n\n\n"
                     "def pick{n}():\n"
                     "    return noise{n}, 1.0\n",
                     ["self.fn{n}, self.p{n} = pick{n}()"],
                     ["if self.p{n} > 0:", "    x = self.fn{n}(x)"], ""),
    # An optional import with a fallback: either alternative may run.
    "try_import": ("try:\n"
                   "    from {p}_absent.ops import blur as blur{n}\n"
                   "except ImportError:\n"
                   "    def blur{n}(x):\n"
                   "        return x + {d}\n",
                   [], ["x = blur{n}(x)"], ""),
    # A classmethod that builds the transform (`cls(...)`).
    "classmethod_factory": ("class Gain{n}:\n"
                            "    def __init__(self, scale):\n"
                            "        self.scale = scale\n\n"
                            "    @classmethod\n"
                            "    def default(cls):\n"
                            "        return cls(0.1)\n\n"
                            "    def __call__(self, x):\n"
                            "        return x + self.scale * {d}\n",
                            ["self.gain{n} = Gain{n}.default()"],
                            ["x = self.gain{n}(x)"], ""),
    # Steps yielded by a generator method and applied in turn.
    "yielded_steps": ("def wobble{n}(x):\n"
                      "    return x + {d}\n",
                      [], ["for step in self.steps{n}():", "    x = step(x)"],
                      "    def steps{n}(self):\n"
                      "        yield abs\n"
                      "        yield from [wobble{n}]\n"),
    "compose": ("class Flip{n}:\n"
                "    def __call__(self, x):\n"
                "        return -x if {d} < 0.5 else x\n",
                ["self.pipeline{n} = T.Compose([Flip{n}()])"],
                ["x = self.pipeline{n}(x)"], ""),
}

# Idioms in an installed library (docs/analysis.md, "Library source"):
# files of a package `{p}` written to the program's own site-packages
# folder (on PYTHONPATH for both the analysis and the run), keyed by the
# example idiom of the same name. The audit reports a library's draw at the
# program's line that called into the library.
LIBRARY_FILES = {
    "library_base_class": {
        "{p}/__init__.py": "from .flips import *\n",
        "{p}/core.py": ("import random\n\nimport numpy as np\n"
                        "import torch\n\n\n"
                        "class BaseTransform:\n"
                        "    def __call__(self, x):\n"
                        "        return self.apply(x) + 0.0 * {d}\n\n"
                        "    def apply(self, x):\n"
                        "        return x\n"),
        "{p}/flips.py": ("from .core import BaseTransform\n\n"
                         "__all__ = ['Flip']\n\n\n"
                         "class Flip(BaseTransform):\n"
                         "    def apply(self, x):\n"
                         "        return -x\n"),
    },
    "library_registry": {
        "{p}/__init__.py": "",
        "{p}/ops.py": ("import random\n\nimport numpy as np\n"
                       "import torch\n\n\n"
                       "def jitter(x):\n"
                       "    return x + {d}\n\n\n"
                       "def keep(x):\n"
                       "    return x\n\n\n"
                       "OPS = {{'jitter': jitter, 'keep': keep}}\n\n\n"
                       "def apply(name, x):\n"
                       "    return OPS[name](x)\n"),
    },
    "library_chain": {
        "{p}/__init__.py": ("class Chain:\n"
                            "    def __init__(self, steps):\n"
                            "        self.steps = steps\n\n"
                            "    def __call__(self, x):\n"
                            "        for step in self.steps:\n"
                            "            x = step(x)\n"
                            "        return x\n"),
    },
    "library_layer": {
        "{p}/__init__.py": "",
        "{p}/layers.py": ("import torch.nn as nn\n\n\n"
                          "class DropPath(nn.Module):\n"
                          "    def forward(self, x):\n"
                          "        keep = x.new_empty(x.shape)"
                          ".bernoulli_(0.5)\n"
                          "        return x * keep\n"),
    },
}

# Per-batch idioms: (module-level code, Net.__init__ lines, forward lines,
# step lines).
BATCH_IDIOMS = {
    "dropout_layer": ("", ["self.drop = nn.Dropout(0.5)"],
                      ["x = self.drop(x)"], []),
    "functional_dropout": ("", [], ["x = F.dropout(x, 0.5, training=True)"],
                           []),
    "step_noise": ("", [], [], ["x = x + 0.1 * torch.randn_like(x)"]),
    "sequential_dropout": ("", ["self.head = nn.Sequential(nn.Linear(4, 4), "
                               "nn.Dropout(0.5))"], ["x = self.head(x)"], []),
    "copied_dropout": ("", ["self.drop2 = copy.deepcopy(nn.Dropout(0.5))"],
                       ["x = self.drop2(x)"], []),
    "module_dict": ("", ["self.blocks = nn.ModuleDict({'drop': "
                         "nn.Dropout(0.5)})"],
                    ["x = self.blocks['drop'](x)"], []),
    "transformer_layer": ("", ["self.enc = nn.TransformerEncoderLayer("
                               "d_model=4, nhead=1, dim_feedforward=8, "
                               "dropout=0.3, batch_first=True)"],
                          ["x = self.enc(x.unsqueeze(1)).squeeze(1)"], []),
    "mixup": ("", [], [], ["lam = np.random.beta(1.0, 1.0)",
                           "perm = torch.randperm(x.size(0))",
                           "x = lam * x + (1 - lam) * x[perm]"]),
    "nested_block": ("class Block(nn.Module):\n"
                     "    def __init__(self):\n"
                     "        super().__init__()\n"
                     "        self.drop = nn.Dropout(0.5)\n\n"
                     "    def forward(self, x):\n"
                     "        return self.drop(x)\n",
                     ["self.block = Block()"], ["x = self.block(x)"], []),
    "module_list": ("class Layer(nn.Module):\n"
                    "    def __init__(self):\n"
                    "        super().__init__()\n"
                    "        self.drop = nn.Dropout(0.5)\n\n"
                    "    def forward(self, x):\n"
                    "        return self.drop(x)\n",
                    ["self.layers = nn.ModuleList([Layer() for _ in "
                     "range(2)])"],
                    ["for layer in self.layers:", "    x = layer(x)"], []),
    "checkpointed_block": ("import torch.utils.checkpoint\n\n\n"
                           "class Inner(nn.Module):\n"
                           "    def __init__(self):\n"
                           "        super().__init__()\n"
                           "        self.drop = nn.Dropout(0.5)\n\n"
                           "    def forward(self, x):\n"
                           "        return self.drop(x)\n",
                           ["self.inner = Inner()"],
                           ["x = torch.utils.checkpoint.checkpoint("
                            "self.inner, x, use_reentrant=False)"], []),
    "functional_p_attr": ("", ["self.p = 0.5"],
                          ["x = F.dropout(x, p=self.p, "
                           "training=self.training)"], []),
    "stochastic_depth": ("", [], ["if self.training and "
                                  "float(torch.rand(1)) < 0.5:",
                                  "    x = x * 0"], []),
    "library_layer": ("from glbatch.layers import DropPath\n",
                      ["self.drop_path = DropPath()"],
                      ["x = self.drop_path(x)"], []),
    "helper_noise": ("def perturb(x):\n"
                     "    return x + 0.1 * torch.rand(x.shape)\n",
                     [], [], ["x = perturb(x)"]),
    # A bound method in a functools.partial (diffusion's compute_losses).
    "bound_method_partial": ("class Noiser:\n"
                             "    def perturb(self, x, scale):\n"
                             "        return x + scale * "
                             "torch.randn_like(x)\n\n\n"
                             "NOISER = Noiser()\n",
                             [], [],
                             ["compute = functools.partial(NOISER.perturb, "
                              "x, 0.1)", "x = compute()"]),
    # A block run through a custom autograd function (gradient
    # checkpointing written by hand).
    "autograd_apply": ("class Recompute(torch.autograd.Function):\n"
                       "    @staticmethod\n"
                       "    def forward(ctx, run, x):\n"
                       "        return run(x)\n\n"
                       "    @staticmethod\n"
                       "    def backward(ctx, grad):\n"
                       "        return None, grad\n\n\n"
                       "class Checkpointed(nn.Module):\n"
                       "    def __init__(self):\n"
                       "        super().__init__()\n"
                       "        self.drop = nn.Dropout(0.5)\n\n"
                       "    def _forward(self, x):\n"
                       "        return self.drop(x)\n\n"
                       "    def forward(self, x):\n"
                       "        return Recompute.apply(self._forward, x)\n",
                       ["self.ckpt = Checkpointed()"],
                       ["x = self.ckpt(x)"], []),
    # A part built from a builder passed in (MoCo v3's base_encoder).
    "builder_partial": ("class Holder(nn.Module):\n"
                        "    def __init__(self, build):\n"
                        "        super().__init__()\n"
                        "        self.part = build(p=0.5)\n\n"
                        "    def forward(self, x):\n"
                        "        return self.part(x)\n",
                        ["self.holder = Holder(functools.partial("
                         "nn.Dropout))"],
                        ["x = self.holder(x)"], []),
}

LOOPS = {
    "plain": ("", ["for x, y in loader:"], "    "),
    "enumerate": ("", ["for i, (x, y) in enumerate(loader):"], "    "),
    "tqdm": ("from tqdm import tqdm\n", ["for x, y in tqdm(loader):"],
             "    "),
    "generator": ("def batches(source):\n"
                  "    for batch in source:\n"
                  "        yield batch\n",
                  ["for x, y in batches(loader):"], "    "),
    "pbar_variable": ("from tqdm import tqdm\n",
                      ["pbar = tqdm(loader)", "for x, y in pbar:"], "    "),
    "enumerate_tqdm": ("from tqdm import tqdm\n",
                       ["for step, batch in enumerate(tqdm(loader)):",
                        "    x, y = batch"], "    "),
    "yield_from": ("def batches(source):\n"
                   "    yield from source\n",
                   ["for x, y in batches(loader):"], "    "),
    "zip_count": ("import itertools\n",
                  ["for (x, y), step in zip(loader, itertools.count()):"],
                  "    "),
    "islice": ("import itertools\n",
               ["for x, y in itertools.islice(loader, 100):"], "    "),
    "next_in_while": ("", ["it = iter(loader)", "while True:",
                           "    try:", "        x, y = next(it)",
                           "    except StopIteration:", "        break"],
                      "    "),
}


# How the model and the loader are made.
CONSTRUCTIONS = {
    "direct": ("", ["model = Net()",
                    "loader = DataLoader(Data(), batch_size=4, "
                    "num_workers={w})"]),
    "factories": ("def build_model():\n"
                  "    return Net()\n\n\n"
                  "def make_loader(dataset, workers):\n"
                  "    return DataLoader(dataset, batch_size=4, "
                  "num_workers=workers)\n",
                  ["model = build_model()",
                   "loader = make_loader(Data(), {w})"]),
    "loader_dict": ("", ["model = Net()",
                         "loaders = {{'train': DataLoader(Data(), "
                         "batch_size=4, num_workers={w})}}",
                         "loader = loaders['train']"]),
    "subset_kwargs": ("", ["model = Net()",
                           "kw = dict(batch_size=4, num_workers={w})",
                           "loader = DataLoader(Subset(Data(), "
                           "list(range(16))), **kw)"]),
}

# How the epoch loop is reached: at module level, in a function that
# main() calls under `if __name__ == "__main__"`, in a Trainer's method.
DRIVERS = ["module", "function", "trainer", "thread"]

# How the step is written: as usual, keeping what backward() returns
# (`z = loss.backward()` once crashed the lowering), or under autocast.
STEP_FORMS = ["plain", "assigned_backward", "autocast"]


def indent(lines, by):
    return "".join(by + line + "\n" for line in lines)


def driver_code(driver, construction, workers, header, inner, step,
                step_form="plain"):
    setup = (["torch.manual_seed(0)", "np.random.seed(0)", "random.seed(0)"]
             + [line.format(w=workers)
                for line in CONSTRUCTIONS[construction][1]]
             + ["opt = torch.optim.SGD(model.parameters(), lr=0.1)"])
    forward = ["loss = F.cross_entropy(model(x), y)"]
    if step_form == "autocast":
        forward = ['with torch.autocast("cpu", dtype=torch.bfloat16):',
                   "    out = model(x)",
                   "loss = F.cross_entropy(out.float(), y)"]
    backward = ("z = loss.backward()" if step_form == "assigned_backward"
                else "loss.backward()")
    epoch = (["for epoch in range(2):"] + indent(header, "    ").splitlines()
             + indent(step + forward + ["opt.zero_grad()", backward,
                                        "opt.step()"],
                      "    " + inner).splitlines())
    if driver == "module":
        return indent(setup + epoch, "")
    if driver in ("function", "thread"):
        # (A thread's target: the training runs outside the main thread.)
        start = ("    main()\n" if driver == "function" else
                 "    import threading\n"
                 "    worker = threading.Thread(target=main)\n"
                 "    worker.start()\n"
                 "    worker.join()\n")
        return ("def train(model, loader, opt):\n" + indent(epoch, "    ")
                + "\n\ndef main():\n" + indent(setup, "    ")
                + "    train(model, loader, opt)\n\n\n"
                "if __name__ == \"__main__\":\n" + start)
    body = [line.replace("model(", "self.model(")
            .replace("opt.", "self.opt.").replace("(loader", "(self.loader")
            .replace("in loader", "in self.loader") for line in epoch]
    return ("class Trainer:\n"
            "    def __init__(self, model, loader, opt):\n"
            "        self.model = model\n"
            "        self.loader = loader\n"
            "        self.opt = opt\n\n"
            "    def fit(self):\n" + indent(body, "        ")
            + "\n\n" + indent(setup, "")
            + "Trainer(model, loader, opt).fit()\n")


def program(rng):
    """A program and what it combines."""
    examples = rng.sample(sorted(EXAMPLE_IDIOMS), rng.randint(2, 3))
    batch = rng.sample(sorted(BATCH_IDIOMS), rng.randint(1, 2))
    loop = rng.choice(sorted(LOOPS))
    # A literal 0 makes loading sequential: no per-example region (the
    # audit still calls those draws per-example); the count may come from
    # the environment (unknown to the analysis).
    workers = rng.choice(["2", 'int(os.environ.get("WORKERS", "2"))'])
    construction = rng.choice(sorted(CONSTRUCTIONS))
    top, init, body, methods, bases = [], [], [], [], []
    libraries = {}
    for n, name in enumerate(examples):
        module_code, init_lines, item_lines, method = \
            EXAMPLE_IDIOMS[name][:4]
        if len(EXAMPLE_IDIOMS[name]) > 4:
            bases.append(EXAMPLE_IDIOMS[name][4].format(n=n))
        d = rng.choice(DRAWS)
        fill = {"n": n, "d": d, "p": "glx%d" % n}
        for path, text in LIBRARY_FILES.get(name, {}).items():
            libraries[path.format(**fill)] = text.format(**fill)
        if module_code:
            top.append(module_code.format(**fill))
        init += [line.format(**fill) for line in init_lines]
        body += [line.format(**fill) for line in item_lines]
        if method:
            methods.append(method.format(**fill))
    net_init, forward, step = [], [], []
    for name in batch:
        for path, text in LIBRARY_FILES.get(name, {}).items():
            libraries[path.format(p="glbatch")] = text
        module_code, i, f, s = BATCH_IDIOMS[name]
        if module_code:
            top.append(module_code)
        net_init += i
        forward += f
        step += s
    driver = rng.choice(DRIVERS)
    step_form = rng.choice(STEP_FORMS)
    loop_code, header, inner = LOOPS[loop]
    if loop_code:
        top.append(loop_code)
    if CONSTRUCTIONS[construction][0]:
        top.append(CONSTRUCTIONS[construction][0])
    src = (
        "import copy\n"
        "import functools\n"
        "import os\n"
        "import random\n\n"
        "import numpy as np\n"
        "import torch\n"
        "import torch.nn as nn\n"
        "import torch.nn.functional as F\n"
        "import torchvision.transforms as T\n"
        "from torch.utils.data import DataLoader, Dataset, Subset\n"
        + ("from tqdm import tqdm\n" if "tqdm" in LOOPS[loop][0] else "")
        + "\n\n"
        + "".join(t.replace("from tqdm import tqdm\n", "") + "\n\n"
                  for t in top if t.strip() != "from tqdm import tqdm")
        + "class Data(%s):\n" % ", ".join(bases + ["Dataset"])
        + "    def __init__(self):\n"
        + indent(init or ["pass"], "        ") + "\n"
        "    def __len__(self):\n"
        "        return 16\n\n"
        "    def __getitem__(self, i):\n"
        "        x = torch.full((4,), float(i))\n"
        + indent(body, "        ")
        + "        return x, i % 2\n\n"
        + "".join("\n" + m for m in methods) + "\n\n"
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(4, 2)\n"
        + indent(net_init, "        ") + "\n"
        "    def forward(self, x):\n"
        + indent(forward, "        ")
        + "        return self.fc(x)\n\n\n"
        + driver_code(driver, construction, workers, header, inner, step,
                      step_form)
    )
    what = ("examples: %s; batch: %s; loop: %s; %s; %s; step: %s; "
            "workers: %s" % (", ".join(examples), ", ".join(batch), loop,
                             driver, construction, step_form, workers))
    return src, what, libraries


def library_env(libdir):
    """The environment a program runs and is analysed in: its libraries'
    folder first on PYTHONPATH, no summary cache."""
    env = dict(os.environ, DETC_CACHE_DIR="")
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in [libdir, os.environ.get("PYTHONPATH", "")] if p)
    return env


def static_lines(detc, python, path, libdir):
    p = subprocess.run([detc, "analyze", "--no-config", "--format=json",
                        "--python", python, path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True,
                       env=library_env(libdir))
    if p.returncode not in (0, 1):
        return None, "detc analyze exit %d: %s" % (p.returncode, p.stderr)
    covered = {}
    for f in json.loads(p.stdout)["findings"]:
        if f["rule"] not in ("detc-unsafe-rng", "detc-may-draw"):
            continue
        lines = [f["line"]] + [n["line"] for n in f.get("notes", [])
                               if n["message"].startswith("reached through")]
        for line in lines:
            covered.setdefault(line, []).append(f["line"])
    return covered, None


class AuditForks:
    """A process of audit_forks.py: audits one program at a time in a
    child forked from an interpreter that imported torch once (each
    worker thread has its own)."""

    def __init__(self, python, audit_py):
        self.proc = subprocess.Popen(
            [python, os.path.join(os.path.dirname(os.path.abspath(
                __file__)), "audit_forks.py"), audit_py],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env=dict(os.environ, DETC_CACHE_DIR=""))

    def audit(self, path, libdir, steps):
        out = path + ".audit.json"
        pythonpath = library_env(libdir)["PYTHONPATH"].split(os.pathsep)
        self.proc.stdin.write(json.dumps({
            "script": path, "pythonpath": pythonpath, "steps": steps,
            "out": out}) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            return 1, "", "the audit's fork server ended"
        with open(out) as f, open(out + ".err") as e:
            return json.loads(answer)["status"], f.read(), e.read()

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


_FORKS = threading.local()
_ALL_FORKS = []


def audit_run(detc, python, path, libdir):
    """(exit status, stdout, stderr) of `detc audit --steps 2
    --format=json` on the program: through a fork server when the build
    tree's runtime is beside `detc` (the file the launcher runs), else the
    launcher itself (also with DETC_AUDIT_LAUNCH=1)."""
    audit_py = os.path.join(os.path.dirname(os.path.dirname(detc)),
                            "python", "detc_runtime", "audit.py")
    if os.path.isfile(audit_py) and not os.environ.get("DETC_AUDIT_LAUNCH"):
        forks = getattr(_FORKS, "server", None)
        if forks is None:
            forks = _FORKS.server = AuditForks(python, audit_py)
            _ALL_FORKS.append(forks)
        return forks.audit(path, libdir, 2)
    p = subprocess.run([detc, "audit", "--python=" + python, "--steps", "2",
                        "--format=json", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True,
                       cwd=os.path.dirname(path), env=library_env(libdir))
    return p.returncode, p.stdout, p.stderr


def dynamic_lines(detc, python, path, libdir):
    status, stdout, stderr = audit_run(detc, python, path, libdir)
    if status != 0:
        return None, "detc audit exit %d: %s" % (status, stderr[-2000:])
    drawn = {}
    for d in json.loads(stdout)["draws"]:
        if os.path.basename(d["file"]) != os.path.basename(path):
            continue
        regions = [c for c in d["contexts"] if c in ("per-example",
                                                    "per-batch")]
        if regions:
            drawn.setdefault(d["line"], set()).update(
                "%s (%s)" % (d["api"], c) for c in regions)
    return drawn, None


def check(detc, python, directory, index, rng_seed):
    """(path, what, missed lines, findings no run drew, lines drawn,
    findings) of program `index` of a seed."""
    rng = random.Random(rng_seed)
    src, what, libraries = program(rng)
    # The program in a folder of its own: the audit counts files under the
    # script's folder as the program's, and its libraries are not.
    os.makedirs(os.path.join(directory, "program_%03d" % index), exist_ok=True)
    path = os.path.join(directory, "program_%03d" % index,
                        "program_%03d.py" % index)
    with open(path, "w") as f:
        f.write(src)
    libdir = os.path.join(directory, "lib_%03d" % index, "site-packages")
    for rel, text in libraries.items():
        os.makedirs(os.path.dirname(os.path.join(libdir, rel)), exist_ok=True)
        with open(os.path.join(libdir, rel), "w") as f:
            f.write(text)
    covered, error = static_lines(detc, python, path, libdir)
    if error:
        return path, what, [error], [], 0, 0
    drawn, error = dynamic_lines(detc, python, path, libdir)
    if error:
        return path, what, [error], [], 0, 0
    missed = ["line %d: %s drawn, no finding covers it" % (
        line, ", ".join(sorted(apis))) for line, apis in sorted(drawn.items())
        if line not in covered]
    findings = {f for line, fs in covered.items() for f in fs}
    unseen = sorted(findings -
                    {f for line in drawn for f in covered.get(line, [])})
    return path, what, missed, unseen, len(drawn), len(findings)


def rotating_seed():
    """A seed that changes once a day (UTC): 1000 + days since 1970."""
    return 1000 + int(time.time() // 86400)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", required=True)
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--seeds", default="42",
                    help="comma-separated seeds, --programs of each")
    ap.add_argument("--seed", type=int, help="one seed (as --seeds S)")
    ap.add_argument("--rotating", action="store_true",
                    help="also the seed of the day (printed)")
    ap.add_argument("--programs", type=int, default=8,
                    help="programs of each seed")
    ap.add_argument("--keep", help="write the programs here (kept)")
    args = ap.parse_args()
    args.detc = os.path.abspath(args.detc)
    seeds = [args.seed] if args.seed is not None else [
        int(x) for x in args.seeds.split(",") if x.strip()]
    if args.rotating:
        seeds.append(rotating_seed())
        print("rotating seed of the day: %d (again: --seeds %d "
              "--programs %d)" % (seeds[-1], seeds[-1], args.programs))
    directory = args.keep or tempfile.mkdtemp(prefix="detc-differential-")
    os.makedirs(directory, exist_ok=True)
    failures = total = drawn = covered = findings = unseen = 0
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        jobs = []
        for seed in seeds:
            # (One seed's programs in the folder itself, as before.)
            folder = directory if len(seeds) == 1 else os.path.join(
                directory, "seed_%d" % seed)
            os.makedirs(folder, exist_ok=True)
            jobs += [(seed, pool.submit(check, args.detc, args.python,
                                        folder, i, seed * 1000 + i))
                     for i in range(args.programs)]
        for seed, job in jobs:
            path, what, missed, never, n_drawn, n_findings = job.result()
            status = "MISSED" if missed else "ok"
            print("seed %d %s: %s (%s)" % (seed, os.path.basename(path),
                                           status, what))
            for m in missed:
                print("  " + m)
            if never:
                print("  static only (not drawn in 2 batches): lines %s" %
                      ", ".join(map(str, never)))
            failures += bool(missed)
            total += 1
            drawn += n_drawn
            covered += n_drawn - len(missed)
            findings += n_findings
            unseen += len(never)
    for forks in _ALL_FORKS:
        forks.close()
    print("recall: %d of %d lines drawn in a region are findings' lines; "
          "precision: %d of %d findings drawn in 2 batches" % (
              covered, drawn, findings - unseen, findings))
    print("%d of %d programs: every draw in a region is a finding" % (
        total - failures, total))
    if failures:
        print("programs kept in %s" % directory)
        sys.exit(1)
    if not args.keep:
        shutil.rmtree(directory)


if __name__ == "__main__":
    main()

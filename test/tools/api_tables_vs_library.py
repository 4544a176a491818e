"""detc's API tables against the libraries' own source: every class of
torch.nn and torchvision.transforms (and transforms.v2 where installed)
that the tables model as drawing nothing must draw nothing, and every
class that draws must be modelled as drawing; every Python function of
torch.nn.functional (its docstring left out: the examples there draw)
that calls a random function must be modelled as a draw; every torch
function and Tensor method whose signature (torch.overrides' table of
torch's API) takes a `generator=` must be modelled as a draw, the methods
on a tensor of unknown type too; and every torch.distributions class's
sample, rsample and sample_n; every public method of a library type the
tables give objects (`type=`) has a line describing it.

"Draws" is read off the class's source: the methods a forward or a
transform runs (forward, __call__, get_params, _get_params, make_params,
and those of its torch/torchvision base classes) call one of torch's
random functions, a functional dropout, or python's / numpy's random.
"Modelled as drawing" is what detc's lowering makes of a call of the
class: a build with a draw in its forward. Run under every torch the suite
tests (Debian's 1.13 and pip's 2.x).
"""
import argparse
import ast
import inspect
import os
import re
import subprocess
import sys
import tempfile
import textwrap

API_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "lib", "frontend", "Lowering", "api")
DRAW = re.compile(
    r"\btorch\.(rand|randn|randint|randperm|bernoulli|multinomial|normal|"
    r"poisson|empty\([^)]*\)\.(uniform_|normal_|exponential_))\b"
    r"|\bF\.(dropout\w*|alpha_dropout|feature_alpha_dropout|rrelu|"
    r"scaled_dot_product_attention|multi_head_attention_forward|"
    r"fractional_max_pool\w*)\b"
    r"|\b_VF\.(lstm|gru|rnn_tanh|rnn_relu)\b|\b_rnn_impls\b"
    r"|\brandom\.(random|randint|uniform|choice|shuffle|sample)\b"
    r"|\bnp\.random\.|\.uniform_\(|\.bernoulli_\(|\.normal_\(")
METHODS = ("forward", "__call__", "get_params", "_get_params",
           "make_params", "_call_kernel", "_transform", "transform")


def layer_entries():
    """(name, keys) of every `layer` entry of the API tables."""
    for table in sorted(os.listdir(API_DIR)):
        if not table.endswith(".api"):
            continue
        with open(os.path.join(API_DIR, table)) as f:
            for line in f:
                words = line.split()
                if len(words) >= 2 and words[1] == "layer":
                    yield words[0], words[2:]


def switched_layers():
    """The layers whose table entry names the probability that switches
    their draws off (`training=dropout`): name -> parameter."""
    found = {}
    for name, keys in layer_entries():
        for w in keys:
            if w.startswith("training="):
                found[name] = w[len("training="):].split("|")[-1]
    return found


def train_only_layers():
    """The layers whose table entry says they draw only in training mode
    (`train_only`)."""
    return [name for name, keys in layer_entries() if "train_only" in keys]


def _seq(*shape):
    return lambda: (torch_randn(*shape),)


def torch_randn(*shape):
    import torch
    return torch.randn(*shape, generator=torch.Generator().manual_seed(1))


# How to build each `train_only` layer with its draws on, and what its
# forward takes. torchvision's models: small ones of the families that
# draw (the others build the same dropout and stochastic-depth modules:
# the swin and maxvit models' StochasticDepth is torchvision.ops's);
# `models.__dict__` stands for them all.
TRAIN_ONLY_RECIPES = {
    "torch.nn.Dropout": (lambda m: m.Dropout(0.5), _seq(4, 5)),
    "torch.nn.Dropout1d": (lambda m: m.Dropout1d(0.5), _seq(2, 3, 5)),
    "torch.nn.Dropout2d": (lambda m: m.Dropout2d(0.5), _seq(2, 3, 4, 4)),
    "torch.nn.Dropout3d": (lambda m: m.Dropout3d(0.5), _seq(2, 3, 2, 4, 4)),
    "torch.nn.AlphaDropout": (lambda m: m.AlphaDropout(0.5), _seq(4, 5)),
    "torch.nn.FeatureAlphaDropout": (lambda m: m.FeatureAlphaDropout(0.5),
                                     _seq(2, 3, 4, 4)),
    "torch.nn.RReLU": (lambda m: m.RReLU(), _seq(4, 5)),
    "torch.nn.Transformer": (
        lambda m: m.Transformer(8, 2, 1, 1, 16, 0.5),
        lambda: (torch_randn(3, 2, 8), torch_randn(4, 2, 8))),
    "torch.nn.TransformerEncoder": (
        lambda m: m.TransformerEncoder(m.TransformerEncoderLayer(
            8, 2, 16, 0.5), 2), _seq(3, 2, 8)),
    "torch.nn.TransformerDecoder": (
        lambda m: m.TransformerDecoder(m.TransformerDecoderLayer(
            8, 2, 16, 0.5), 2),
        lambda: (torch_randn(3, 2, 8), torch_randn(4, 2, 8))),
    "torch.nn.TransformerEncoderLayer": (
        lambda m: m.TransformerEncoderLayer(8, 2, 16, 0.5), _seq(3, 2, 8)),
    "torch.nn.TransformerDecoderLayer": (
        lambda m: m.TransformerDecoderLayer(8, 2, 16, 0.5),
        lambda: (torch_randn(3, 2, 8), torch_randn(4, 2, 8))),
    "torch.nn.MultiheadAttention": (
        lambda m: m.MultiheadAttention(8, 2, dropout=0.5),
        lambda: (torch_randn(3, 2, 8),) * 3),
    "torch.nn.RNN": (lambda m: m.RNN(4, 8, 2, dropout=0.5), _seq(5, 2, 4)),
    "torch.nn.LSTM": (lambda m: m.LSTM(4, 8, 2, dropout=0.5), _seq(5, 2, 4)),
    "torch.nn.GRU": (lambda m: m.GRU(4, 8, 2, dropout=0.5), _seq(5, 2, 4)),
    "torchvision.ops.StochasticDepth": (
        lambda m: m.StochasticDepth(0.5, "row"), _seq(4, 3)),
    "torchvision.ops.DropBlock2d": (lambda m: m.DropBlock2d(0.5, 3),
                                    _seq(2, 3, 8, 8)),
    "torchvision.ops.DropBlock3d": (lambda m: m.DropBlock3d(0.5, 3),
                                    _seq(2, 3, 6, 6, 6)),
    "torchvision.ops.MLP": (lambda m: m.MLP(4, [8, 4], dropout=0.5),
                            _seq(2, 4)),
}
for _model in ("squeezenet1_1", "mobilenet_v3_small", "mnasnet0_5",
               "efficientnet_b0"):
    TRAIN_ONLY_RECIPES["torchvision.models." + _model] = (
        lambda m, _model=_model: getattr(m, _model)(num_classes=10),
        _seq(2, 3, 64, 64))
# (Its default initialisation takes seconds; its auxiliary heads' F.dropout
# follows self.training.)
TRAIN_ONLY_RECIPES["torchvision.models.googlenet"] = (
    lambda m: m.googlenet(num_classes=10, aux_logits=True,
                          init_weights=False), _seq(2, 3, 96, 96))


def check_train_only(with_torchvision):
    """Every layer the tables mark `train_only` draws in training mode and
    leaves torch's generator alone in evaluation mode (its forward run
    both ways). Returns (mismatches, names checked)."""
    import importlib

    import torch
    wrong, checked = [], []
    for name in train_only_layers():
        module_name, _, attr = name.rpartition(".")
        if name not in TRAIN_ONLY_RECIPES:
            if not module_name.startswith("torchvision.models"):
                wrong.append("%s is marked train_only, and the check has "
                             "no recipe to build it" % name)
            continue
        if module_name.startswith("torchvision") and not with_torchvision:
            continue
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if not hasattr(module, attr):
            continue  # not in this version of the library
        build, inputs = TRAIN_ONLY_RECIPES[name]
        layer = build(module)
        moved = []
        for training in (True, False):
            layer.train(training)
            before = torch.get_rng_state()
            with torch.no_grad():
                layer(*inputs())
            moved.append(not torch.equal(before, torch.get_rng_state()))
        if moved[1]:
            wrong.append("%s is marked train_only, but its forward in "
                         "evaluation mode draws from torch's generator" %
                         name)
        elif not moved[0]:
            wrong.append("%s is marked train_only, but its forward in "
                         "training mode draws nothing (the recipe does not "
                         "switch its draws on)" % name)
        checked.append(name)
    return wrong, checked


class Modelled:
    """What detc's own lowering (the tables built into the binary) makes of
    `NAME()` for each class name: a build with a draw in it, or not. A
    layer whose draws a probability switches off is built with it nonzero
    (`nn.LSTM(dropout=0.5)`), as its source is read with it nonzero."""

    def __init__(self, detc):
        self.detc = detc
        self.known = {}
        self.switched = switched_layers()

    def lowered(self, lines):
        """The detc dialect of the program `lines` make."""
        with tempfile.NamedTemporaryFile("w", suffix=".py") as f:
            f.write("\n".join(lines) + "\n")
            f.flush()
            return subprocess.run([self.detc, f.name, "--emit=mlir"],
                                  capture_output=True, text=True,
                                  check=True).stdout

    def learn(self, names):
        lines = ["import torch.nn", "import torchvision.transforms"]
        if any(n.startswith("torchvision.transforms.v2.") for n in names):
            lines.append("import torchvision.transforms.v2")
        lines += ["v%d = %s(%s)" % (i, n, "%s=0.5" % self.switched[n]
                                    if n in self.switched else "")
                  for i, n in enumerate(names)]
        draws = set()
        for m in re.finditer(r'detc\.build "[^"]*" defs \["@v(\d+)"\][^\n]*'
                             r'\{\n(\s*detc\.draw )?', self.lowered(lines)):
            if m.group(2):
                draws.add(int(m.group(1)))
        for i, n in enumerate(names):
            self.known[n] = i in draws

    def draws(self, name):
        return self.known[name]

    def calls_draw(self, calls):
        """Which of the functions in `calls` (name: its arguments) detc
        lowers to a draw."""
        exprs = {"%s(%s)" % (n, a): n for n, a in calls.items()}
        return {exprs[e] for e in self.expressions_draw(sorted(exprs))}

    def methods_unread(self, imports, made, methods):
        """Which of `methods`, called on the object `made` (a constructor
        call, after `imports`), detc takes for code no table describes
        (`unread_calls`)."""
        lines = imports + ["x = 1", "o = %s" % made]
        lines += ["v%d = o.%s(x)" % (i, m) for i, m in enumerate(methods)]
        unread = {int(i) for i in
                  re.findall(r'defs \["@v(\d+)"\][^\n]*unread_calls',
                             self.lowered(lines))}
        return [m for i, m in enumerate(methods) if i in unread]

    def expressions_draw(self, exprs):
        """Which of the expressions in `exprs` detc lowers to a draw: on a
        tensor `r` whose type the tables do not know (`torch.empty`'s
        result, as a batch or a model's output), constant arguments `x`."""
        lines = ["import torch", "import torch.distributions",
                 "import torch.nn.functional", "r = torch.empty(3)", "x = 1"]
        lines += ["v%d = %s" % (i, e) for i, e in enumerate(exprs)]
        drawn = {int(i) for i in
                 re.findall(r'detc\.draw [^\n]* defs \["@v(\d+)"\]',
                            self.lowered(lines))}
        return {e for i, e in enumerate(exprs) if i in drawn}


def generator_methods():
    """torch's functions and Tensor methods that take a `generator=`: their
    signatures as torch.overrides records them (torch's own table of its
    API)."""
    import torch
    from torch.overrides import get_testing_overrides
    functions, methods = set(), set()
    for fn, lam in get_testing_overrides().items():
        try:
            params = inspect.signature(lam).parameters
        except (TypeError, ValueError):
            continue
        name = getattr(fn, "__name__", "")
        if "generator" not in params or name.startswith("_"):
            continue
        if getattr(torch, name, None) is fn:
            functions.add(name)
        elif getattr(torch.Tensor, name, None) is fn:
            methods.add(name)
    return functions, methods


def check_generators(tables):
    """Every torch function and Tensor method taking a generator draws:
    `torch.f(...)` and `t.m(...)` on a tensor of unknown type must be
    modelled as draws (a tensor's type is rarely known: `torch.empty(n)`,
    a batch, a model's output)."""
    functions, methods = generator_methods()
    exprs = {"torch.%s(x)" % f: f for f in functions}
    exprs.update({"r.%s()" % m: m for m in methods})
    modelled = tables.expressions_draw(sorted(exprs))
    return ["%s takes a generator (it draws) but the tables say %s draws "
            "nothing" % (exprs[e], e) for e in sorted(exprs)
            if e not in modelled]


def check_distributions(tables):
    """Every distribution class of torch.distributions: its sample,
    rsample and sample_n are draws."""
    import torch.distributions as D
    names = [n for n, c in classes(D) if issubclass(c, D.Distribution)]
    exprs = ["torch.distributions.%s(x).%s()" % (n, m)
             for n in names for m in ("sample", "rsample", "sample_n")]
    modelled = tables.expressions_draw(exprs)
    return ["%s draws from torch's generator but the tables say it draws "
            "nothing" % e for e in exprs if e not in modelled], len(names)


def type_constructors():
    """Each library type the tables give objects (a line's `type=`), with
    a constructor the tables make it by: {type: constructor}. A wildcard
    line's (`torch.distributions.*`) is the type itself when the wildcard
    covers it."""
    types = {}
    for table in sorted(os.listdir(API_DIR)):
        if not table.endswith(".api"):
            continue
        with open(os.path.join(API_DIR, table)) as f:
            for line in f:
                words = line.split("#")[0].split()
                given = [w[5:] for w in words[2:] if w.startswith("type=")]
                if not given or given[0] == "None":
                    continue
                ctor, typ = words[0], given[0]
                if ctor.endswith(".*"):
                    if not typ.startswith(ctor[:-1]):
                        continue
                    ctor = typ
                types.setdefault(typ, ctor)
    return types


def check_type_methods(tables):
    """The library types the tables give objects (a constructor's
    `type=`): each public method the type has here is described by a line
    (an undescribed one may draw, so a method newer than the tables shows
    up here, not as a silent or noisy finding). A type whose library is
    not installed here is left out. Returns (mismatches, the types
    checked)."""
    import importlib
    wrong, checked = [], []
    for name, ctor in sorted(type_constructors().items()):
        module, _, attr = name.rpartition(".")
        try:
            cls = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError):
            continue
        methods = sorted(m for m in dir(cls) if not m.startswith("_") and
                         not hasattr(object, m) and
                         not isinstance(inspect.getattr_static(cls, m),
                                        property) and
                         callable(getattr(cls, m, None)))
        imports = ["import %s" % ctor.split(".")[0]]
        unread = tables.methods_unread(imports, "%s(x)" % ctor, methods)
        wrong += ["%s.%s: a method the library has that no table line "
                  "describes (detc takes it to be unread code)" % (name, m)
                  for m in unread]
        checked.append(name)
    return wrong, checked


def check_exports():
    """Every `exports` line's module: each name its `__all__` has here is
    listed (a name left out would be bound, after `from M import *`, to
    a builtin or another module's name). Returns (mismatches, modules)."""
    import importlib
    listed = {}
    for table in sorted(os.listdir(API_DIR)):
        if table.endswith(".api"):
            with open(os.path.join(API_DIR, table)) as f:
                for line in f:
                    words = line.split()
                    if len(words) >= 3 and words[0] == "exports":
                        listed.setdefault(words[1], set()).update(words[2:])
    wrong = []
    for module, names in sorted(listed.items()):
        missing = sorted(set(importlib.import_module(module).__all__) -
                         names)
        if missing:
            wrong.append("from %s import * binds %s, which no exports line "
                         "lists" % (module, ", ".join(missing)))
    return wrong, sorted(listed)


def check_foreach():
    """torch.api declares `torch._foreach_*` (the multi-tensor arithmetic
    optimizers step with) drawing nothing: no such name of this torch may
    be a random one or document a generator. Returns (mismatches, count)."""
    import torch
    names = [n for n in dir(torch) if n.startswith("_foreach_")]
    random_name = re.compile(r"rand|normal|bernoulli|generator|dropout|"
                             r"multinomial|uniform|exponential|cauchy|"
                             r"geometric|poisson")
    wrong = []
    for n in names:
        doc = getattr(getattr(torch, n), "__doc__", None) or ""
        if random_name.search(n) or "generator" in doc:
            wrong.append("torch.%s may draw, but torch.api's torch._foreach_* "
                         "declares it pure" % n)
    return wrong, len(names)


# What a functional calls to draw: torch's random functions and kernels.
FUNCTIONAL_DRAW = re.compile(
    r"\b(_VF|torch|torch\._C\._nn)\.(\w*dropout\w*|rrelu\w*|bernoulli\w*|"
    r"rand\w*|multinomial|normal)\b|\.(exponential|uniform|normal)_\(")


def function_draws(fn):
    """Whether `fn`'s code (without its docstring) calls a random
    function."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return False
    body = tree.body[0].body
    if body and isinstance(body[0], ast.Expr) and isinstance(
            body[0].value, ast.Constant):
        tree.body[0].body = body[1:] or [ast.Pass()]
    code = ast.unparse(tree)
    return bool(DRAW.search(code) or FUNCTIONAL_DRAW.search(code))


def check_functional(tables):
    import torch.nn.functional as F
    names = [n for n in sorted(dir(F)) if not n.startswith("_")
             and inspect.isfunction(getattr(F, n))]
    drawing = {n for n in names if function_draws(getattr(F, n))}

    def arguments(fn):
        # Switched on: a draw that defaults to off (`training=False`) is
        # still one when the script turns it on.
        params = inspect.signature(fn).parameters
        return "x" + ("".join(", %s=%s" % (p, v) for p, v in
                              (("training", "True"), ("dropout_p", "0.5"))
                              if p in params))
    modelled = tables.calls_draw({"torch.nn.functional." + n:
                                  arguments(getattr(F, n))
                                  for n in sorted(drawing)})
    return ["torch.nn.functional.%s draws (its code calls a random "
            "function) but the tables say it draws nothing" % n
            for n in sorted(drawing)
            if "torch.nn.functional." + n not in modelled]


def source_draws(cls, library):
    """Whether the methods `cls` runs (its own and its library bases')
    call a random function."""
    for klass in cls.__mro__:
        if not (klass.__module__ or "").startswith(library):
            continue
        for name in METHODS:
            fn = klass.__dict__.get(name)
            if fn is None:
                continue
            try:
                if DRAW.search(inspect.getsource(fn)):
                    return True
            except (OSError, TypeError):
                pass
    return False


def builds_drawing_part(cls, library, drawing):
    """Whether `cls`'s constructor builds a part that draws
    (TransformerEncoderLayer's Dropout and MultiheadAttention)."""
    for klass in cls.__mro__:
        if not (klass.__module__ or "").startswith(library):
            continue
        init = klass.__dict__.get("__init__")
        try:
            text = inspect.getsource(init) if init else ""
        except (OSError, TypeError):
            continue
        if any(re.search(r"\b%s\(" % n, text) for n in drawing):
            return True
        # TransformerEncoder(layer): clones of the layer it is given, which
        # may draw (the tables cannot see the argument: sound is "may").
        if re.search(r"\b_get_clones\(", text):
            return True
    return False


def classes(module):
    for name in sorted(dir(module)):
        obj = getattr(module, name)
        if inspect.isclass(obj) and not name.startswith("_"):
            yield name, obj


def check(tables, prefix, module, library, base):
    wrong = []
    found = [(n, c) for n, c in classes(module)
             if base is None or issubclass(c, base)]
    drawing = {n for n, c in found if source_draws(c, library)}
    while True:  # parts of parts
        more = {n for n, c in found if n not in drawing
                and builds_drawing_part(c, library, drawing)}
        if not more:
            break
        drawing |= more
    tables.learn([prefix + "." + name for name, _ in found])
    for name, cls in found:
        qual = prefix + "." + name
        modelled = tables.draws(qual)
        actual = name in drawing
        if actual and not modelled:
            wrong.append("%s draws (its source calls a random function) "
                         "but the tables say it draws nothing" % qual)
        elif modelled and not actual and not name.startswith("Random"):
            wrong.append("%s is modelled as drawing, but its source draws "
                         "nothing" % qual)
    return wrong


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    args = parser.parse_args()
    tables = Modelled(args.detc)
    import torch

    wrong = check(tables, "torch.nn", torch.nn, "torch", torch.nn.Module)
    wrong += check_functional(tables)
    wrong += check_generators(tables)
    missed, distributions = check_distributions(tables)
    wrong += missed
    foreach_wrong, foreach = check_foreach()
    wrong += foreach_wrong
    exports_wrong, exported = check_exports()
    wrong += exports_wrong
    types_wrong, types = check_type_methods(tables)
    wrong += types_wrong
    # torch.names.api, derived from torch by derive_torch_names.py: every
    # name it lists as drawing nothing that this torch has must still pass
    # the derivation's tests (no generator, no random name, no layer).
    names = subprocess.run(
        [sys.executable, os.path.join(API_DIR, "derive_torch_names.py"),
         "--check", os.path.join(API_DIR, "torch.names.api")],
        capture_output=True, text=True)
    wrong += [line[len("FAIL: "):] for line in names.stdout.splitlines()
              if line.startswith("FAIL: ")]
    if names.returncode != 0 and "FAIL: " not in names.stdout:
        wrong.append("derive_torch_names.py --check failed:\n" +
                     names.stdout + names.stderr)
    # stdlib.api, derived from sys.stdlib_module_names: every module it
    # lists is this interpreter's standard library. builtins.api, derived
    # from the builtins module: every builtin of this interpreter is
    # listed (one left out would be reported undefined wherever read).
    for script, table in (("derive_stdlib_names.py", "stdlib.api"),
                          ("derive_builtin_names.py", "builtins.api")):
        derived = subprocess.run(
            [sys.executable, os.path.join(API_DIR, script), "--check",
             os.path.join(API_DIR, table)], capture_output=True, text=True)
        if derived.returncode != 0:
            wrong.append("%s --check failed:\n%s%s" % (
                script, derived.stdout, derived.stderr))
    checked = ["torch.nn (torch %s)" % torch.__version__,
               "torch.names.api", "stdlib.api", "builtins.api",
               "torch.nn.functional",
               "torch's functions and Tensor methods taking a generator",
               "%d classes of torch.distributions" % distributions,
               "%d torch._foreach_ functions" % foreach,
               "the star imports of " + ", ".join(exported),
               "the methods of " + ", ".join(types)]
    # A torchvision built for another torch aborts the interpreter on
    # import: try it in a child first.
    probe = subprocess.run([sys.executable, "-c", "import torchvision"],
                           capture_output=True)
    mode_wrong, mode_checked = check_train_only(probe.returncode == 0)
    wrong += mode_wrong
    checked.append("%d train_only layers in evaluation mode" %
                   len(mode_checked))
    if probe.returncode != 0:
        print("SKIP: torchvision.transforms (no torchvision that imports "
              "beside torch %s)" % torch.__version__)
    else:
        import torchvision.transforms as T

        wrong += check(tables, "torchvision.transforms", T, "torchvision",
                       None)
        checked.append("torchvision.transforms")
        try:
            import torchvision.transforms.v2 as V2
        except ImportError:
            print("SKIP: torchvision.transforms.v2 (torchvision %s has "
                  "none)" % __import__("torchvision").__version__)
        else:
            wrong += check(tables, "torchvision.transforms.v2", V2,
                           "torchvision", None)
            checked.append("torchvision.transforms.v2")
    for w in wrong:
        print("FAIL: " + w)
    print("checked %s: %d mismatch(es)" % (", ".join(checked), len(wrong)))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())

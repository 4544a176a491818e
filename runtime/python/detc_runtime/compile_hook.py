"""What detc needs from torch.compile, done at a script's first call of it.

Importing torch's compiler (torch._dynamo, torch._inductor) costs about
1.3-1.7 s under torch 2.x; a script that never compiles must not pay for
it. So detc's two needs wait for the first torch.compile call:
- keyed draws run as Python inside compiled graphs
  (draws.run_keyed_draws_as_python);
- with deterministic kernels requested, inductor generates deterministic
  code too (torch.use_deterministic_algorithms sets the same flag, and
  imports the compiler to do so: configure sets the kernels' flag without
  it, through deterministic_kernels below).
"""
import functools

import torch

from . import draws

_inductor_deterministic = False


def deterministic_kernels():
    """torch.use_deterministic_algorithms(True), with inductor's flag set
    when the script first compiles."""
    global _inductor_deterministic
    set_flag = getattr(torch._C, "_set_deterministic_algorithms", None)
    if set_flag is None or not hasattr(torch, "compile"):
        torch.use_deterministic_algorithms(True)  # torch 1.x
        return
    set_flag(True)
    _inductor_deterministic = True


def install():
    """Wrap torch.compile (once)."""
    if not hasattr(torch, "compile") or getattr(torch.compile,
                                                "_detc_hook", False):
        return
    original = torch.compile

    @functools.wraps(original)
    def compile(*args, **kwargs):
        draws.run_keyed_draws_as_python()
        if _inductor_deterministic:
            import torch._inductor.config as inductor_config
            inductor_config.deterministic = True
        return original(*args, **kwargs)

    compile._detc_hook = True
    torch.compile = compile

"""A crash's stack with each frame's variables (docs/vaccinate.md): tensors
as shape/dtype/device and a few values, long containers shortened."""
import os
import sys
import sysconfig
import traceback

_MAX = 100


def short(value, limit=_MAX):
    """One line describing `value`."""
    torch = sys.modules.get("torch")
    try:
        if torch is not None and isinstance(value, torch.Tensor):
            head = value.detach().flatten()[:4].tolist()
            return "tensor(shape=%s, dtype=%s, device=%s, values=%s%s)" % (
                list(value.shape), str(value.dtype).replace("torch.", ""),
                value.device, head, "..." if value.numel() > 4 else "")
        if torch is not None and isinstance(value, torch.nn.Module):
            n = sum(p.numel() for p in value.parameters())
            return "%s(%d parameters, %s)" % (
                type(value).__name__, n,
                "training" if value.training else "eval")
        if isinstance(value, (list, tuple, set, dict)) and len(value) > 4:
            items = list(value.items() if isinstance(value, dict)
                         else value)[:3]
            return "%s of %d: %s, ..." % (type(value).__name__, len(value),
                                         ", ".join(short(i, 30)
                                                   for i in items))
        text = repr(value)
    except Exception as e:  # a repr that fails
        text = "<%s: repr failed: %s>" % (type(value).__name__, e)
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _is_runtime(filename):
    return os.path.dirname(os.path.abspath(filename)) == \
        os.path.dirname(os.path.abspath(__file__))


_LIBRARY = tuple({os.path.abspath(p) for p in (
    sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"],
    sysconfig.get_paths()["platlib"], "/usr/lib/python3/dist-packages")})


def _is_library(filename):
    """Frames of the standard library and installed packages: shown
    without their variables."""
    return os.path.abspath(filename).startswith(_LIBRARY)


def print_crash(crash, out):
    """The exception, then each frame of the script (innermost last) with
    its variables; a cell's frame shows the vaccinated function's."""
    print("detc-recovery: %s" % crash.describe(), file=out)
    tb = crash.exc.__traceback__
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    cell_code = crash.cell.__code__
    for frame, lineno in frames:
        code = frame.f_code
        if _is_runtime(code.co_filename):
            continue
        summary = traceback.FrameSummary(code.co_filename, lineno,
                                         code.co_name)
        name = code.co_name
        if name.startswith("_detc_cell_"):
            name = "%s (cell)" % crash.function if code is cell_code else name
        print('  File "%s", line %d, in %s' % (code.co_filename, lineno,
                                               name), file=out)
        if summary.line:
            print("    " + summary.line.strip(), file=out)
        if _is_library(code.co_filename):
            continue
        variables = (crash.variables() if code is cell_code
                     else {k: v for k, v in frame.f_locals.items()
                           if not k.startswith("_detc")})
        for key in sorted(variables)[:20]:
            if key.startswith("_detc") or key.startswith("__"):
                continue
            print("      %s = %s" % (key, short(variables[key])), file=out)
    print("  %s: %s" % (type(crash.exc).__name__, crash.exc), file=out)

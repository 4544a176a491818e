"""Names the program's modules bind at import, rebound to detc's classes.

`key_imported_loaders` makes `torch.utils.data.DataLoader` the keyed
loader's class for the modules a script imports. A module that imports it
from its defining module instead (`from torch.utils.data.dataloader
import DataLoader`, minGPT's trainer.py) got torch's own class: its
loaders were not keyed (their order and their workers' draws not
per-example, an iterator over one not saved by its position), silently.
That defining module cannot be patched (DataLoader's own methods name
the class through its globals: `super(DataLoader, self)`), so the
program's modules are patched instead: after one is executed, each global
bound to a class detc replaced is bound to the replacement.

The program's modules are those not in the interpreter's standard library
or site-packages (libraries look the class up where they like; detc keys
what they build by the class they were given, if any). The finder wraps
whatever loader the other finders give (also overlay.py's edited copies).
"""
import importlib.abc
import importlib.util
import os
import sys
import sysconfig

# id(original class) -> replacement
_REPLACED = {}


def _library_roots():
    roots = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = sysconfig.get_paths().get(key)
        if path:
            roots.add(os.path.realpath(path))
    for path in sys.path:
        if path and ("site-packages" in path or "dist-packages" in path):
            roots.add(os.path.realpath(path))
    return tuple(root + os.sep for root in roots)


class _Rebinding(importlib.abc.Loader):
    def __init__(self, inner):
        self.inner = inner

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        rebind(module)

    def __getattr__(self, name):  # get_source, is_package, ...
        return getattr(self.inner, name)


class _Finder(importlib.abc.MetaPathFinder):
    _detc_wraps = True

    def __init__(self):
        self.roots = _library_roots()

    def find_spec(self, fullname, path, target=None):
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        origin = spec.origin if spec.has_location else None
        if not origin or spec.loader is None or not hasattr(
                spec.loader, "exec_module") or \
                os.path.realpath(origin).startswith(self.roots):
            return spec
        spec.loader = _Rebinding(spec.loader)
        return spec


_FINDER = None


def rebind(module):
    """Binds each global of `module` that is a replaced class to its
    replacement."""
    names = vars(module)
    for name, value in list(names.items()):
        entry = _REPLACED.get(id(value))
        if entry is not None and entry[0] is value:
            names[name] = entry[1]


def replace(original, replacement):
    """From now on the program's modules that bind `original` at import
    bind `replacement` instead."""
    global _FINDER
    _REPLACED[id(original)] = (original, replacement)
    if _FINDER is None:
        _FINDER = _Finder()
        sys.meta_path.insert(0, _FINDER)

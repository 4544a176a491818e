"""Edited copies of the modules a transformed script imports (docs/jit.md,
"Loops in imported modules").

With --jit-checkpoint, detc puts the minibatch boundary into the training
loop where the script has it, also in a module it imports (DeiT's, MAE's
and DETR's `train_one_epoch` in `engine.py`), and edits that module as it
edits the script. The transformed script carries the edited text, and its
header calls install() before the script's own imports: when the script
imports the module by that name, the import system runs the edited text in
place of the file — but only over the very file detc read. A file that
changed since the transform would run edits planned for other code (a
restart at the wrong statement, exit 0 with other weights), so it is exit
3 naming the file, never the old edits.

The edited module keeps everything the file gives it: it is found where
Python finds the file (the same path finder, the same package), and its
__file__ and tracebacks name the file. A module imported before the header
ran (a plain run of the script cannot) is exit 3 too.
"""
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys

from ._state import fail

# Module name -> (sha256 of the file detc read, the edited text).
_MODULES = {}
# Names whose edited text runs in place of the file (for tests, reports).
APPLIED = set()


def _sha256(path):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


class _Loader(importlib.abc.Loader):
    def __init__(self, name, text, origin):
        self.name, self.text, self.origin = name, text, origin

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module):
        code = compile(self.text, self.origin, "exec", dont_inherit=True)
        APPLIED.add(self.name)
        exec(code, module.__dict__)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname not in _MODULES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not spec.has_location or not spec.origin:
            return None
        sha, text = _MODULES[fullname]
        if _sha256(spec.origin) != sha:
            fail("%s (module '%s') is not the file detc transformed with "
                 "the script (it changed since `detc transform`, or another "
                 "file of that name comes first on the path): the script's "
                 "edits of it would run against other code; transform the "
                 "script again" % (spec.origin, fullname), code=3)
        return importlib.util.spec_from_file_location(
            fullname, spec.origin, loader=_Loader(fullname, text, spec.origin),
            submodule_search_locations=spec.submodule_search_locations)


_FINDER = _Finder()


def install(name, sha256, text):
    """Runs `text` in place of the file of module `name` when the script
    imports it, if that file's sha256 is `sha256` (else exit 3)."""
    if name in sys.modules and name not in APPLIED:
        fail("module '%s' (%s) was imported before the transformed script's "
             "header installed detc's edited copy of it; run the transformed "
             "script itself" % (name, getattr(sys.modules[name], "__file__",
                                              "?")), code=3)
    _MODULES[name] = (sha256, text)
    if _FINDER not in sys.meta_path:
        # After finders that wrap what the others find (module_globals.py).
        at = 0
        while at < len(sys.meta_path) and \
                getattr(sys.meta_path[at], "_detc_wraps", False):
            at += 1
        sys.meta_path.insert(at, _FINDER)

"""The interactive recovery prompt (docs/vaccinate.md): pdb on the crash's
traceback, plus the recovery commands. Anything else is Python run with the
failing function's variables (assignments stay, unlike pdb's own `!`)."""
import pdb
import sys

from . import annotate, recovery


class RecoveryPrompt(pdb.Pdb):
    def __init__(self, crash):
        super().__init__(stdin=sys.stdin, stdout=sys.stderr)
        self.prompt = "(detc-recovery) "
        self.use_rawinput = False
        self.crash = crash
        self.decision = None

    def ask(self):
        print("detc-recovery: pass | action CODE | action @file.py | "
              "surgery @file.py | skip | describe | where | quit "
              "(pdb commands work too)", file=sys.stderr)
        self.reset()
        try:
            self.interaction(None, self.crash.exc.__traceback__)
        except EOFError:
            pass
        return self.decision

    def setup(self, f, tb):
        # Start at the failing statement of the vaccinated function (not
        # in the library frame that raised): `p`, `l` and `up`/`down` work
        # from there.
        super().setup(f, tb)
        for i, (frame, _) in enumerate(self.stack):
            if frame.f_code is self.crash.cell.__code__:
                self.curindex = i
                self.curframe = frame
                self.curframe_locals = frame.f_locals

    def _done(self, steps):
        self.decision = steps
        return 1

    def do_pass(self, arg):
        """pass: retry from the statement that raised."""
        return self._done([recovery.RETRY])

    def do_action(self, arg):
        """action CODE | action @file.py: run it with the failing function's
        variables, then retry."""
        if not arg:
            self.error("action needs code or @file.py")
            return None
        return self._done([recovery.action(arg), recovery.RETRY])

    def do_surgery(self, arg):
        """surgery @file.py: replace the functions/methods it defines, then
        retry."""
        if not arg:
            self.error("surgery needs @file.py")
            return None
        return self._done([recovery.surgery(arg), recovery.RETRY])

    def do_skip(self, arg):
        """skip: abandon this iteration of the enclosing loop."""
        if not self.crash.in_loop:
            self.error("no loop encloses the failing statement")
            return None
        return self._done([recovery.SKIP])

    def do_describe(self, arg):
        """describe: the exception, where, and the function's variables."""
        print(self.crash.describe(), file=self.stdout)
        for key, value in sorted(self.crash.variables().items()):
            if not key.startswith("_detc"):
                print("  %s = %s" % (key, annotate.short(value)),
                      file=self.stdout)

    def do_where(self, arg):
        """where: the stack with each frame's variables."""
        annotate.print_crash(self.crash, self.stdout)

    do_w = do_where

    def do_quit(self, arg):
        """quit: give up; the exception propagates."""
        return self._done([recovery.GIVE_UP])

    do_q = do_exit = do_quit

    def do_EOF(self, arg):
        return self.do_quit(arg)

    def default(self, line):
        try:
            recovery.run_action(self.crash, line)
        except Exception as e:
            self.error("%s: %s" % (type(e).__name__, e))

"""The harness side of zygote.py: start() runs `fault_inject.py ARGV` in
a child forked from a server that imported torch once (one server per
harness thread), and returns an object with the subprocess.Popen calls
the harnesses make: pid, poll(), wait(timeout), returncode. The child has
a session of its own (killpg(pid) kills it and its DataLoader workers),
stdin from /dev/null and stdout/stderr in the named files.

DETC_E2E_NO_ZYGOTE=1 runs `python3 fault_inject.py ARGV` afresh instead.
"""
import json
import os
import queue
import subprocess
import sys
import threading

# The Python that runs the scripts: Debian's (torch 1.13), or a venv's
# (torch 2.x, test/platform/torch2.py).
PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")
HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "zygote.py")
INJECT = os.path.join(HERE, "fault_inject.py")

_LOCAL = threading.local()
_SERVERS = []


class Server:
    """One zygote.py process. Its answers are read by a thread into a
    queue (a line already buffered is never missed)."""

    def __init__(self, env):
        self.env = env
        self.proc = subprocess.Popen([PY, SERVER], env=env, text=True,
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=1)
        self.answers = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        _SERVERS.append(self.proc)

    def _read(self):
        for line in self.proc.stdout:
            self.answers.put(json.loads(line))
        self.answers.put(None)

    def answer(self, timeout=None):
        a = self.answers.get(timeout=timeout)
        if a is None:
            sys.exit("FAIL: the zygote died")
        return a


class Child:
    def __init__(self, pid, server):
        self.pid, self.server, self.returncode = pid, server, None

    def poll(self):
        if self.returncode is None:
            try:
                self.returncode = self.server.answer(timeout=0)["status"]
            except queue.Empty:
                pass
        return self.returncode

    def wait(self, timeout=None):
        if self.returncode is None:
            try:
                self.returncode = self.server.answer(timeout)["status"]
            except queue.Empty:
                raise subprocess.TimeoutExpired("zygote child", timeout)
        return self.returncode


def _server(env):
    """This thread's server, started with `env` (PYTHONPATH and thread
    settings take effect at the server's own start: a server is reused
    only for runs with the same ones)."""
    key = tuple(env.get(k) for k in ("PYTHONPATH", "OMP_NUM_THREADS",
                                     "MKL_NUM_THREADS", "PYTHONHASHSEED"))
    servers = getattr(_LOCAL, "servers", None)
    if servers is None:
        servers = _LOCAL.servers = {}
    if key not in servers:
        servers[key] = Server(env)
    return servers[key]


def start(argv, env, cwd, stderr, stdout=os.devnull):
    """Runs fault_inject.py with `argv` (its flags, then the script and
    its arguments)."""
    if os.environ.get("DETC_E2E_NO_ZYGOTE") == "1":
        with open(stdout, "a") as out, open(stderr, "a") as err:
            return subprocess.Popen([PY, INJECT] + list(argv), env=env,
                                    cwd=cwd, stdin=subprocess.DEVNULL,
                                    stdout=out, stderr=err,
                                    start_new_session=True)
    server = _server(env)
    server.proc.stdin.write(json.dumps({
        "argv": list(argv), "env": dict(env), "cwd": cwd, "stderr": stderr,
        "stdout": stdout}) + "\n")
    server.proc.stdin.flush()
    return Child(server.answer()["pid"], server)


def run(argv, env, cwd, timeout=300):
    """subprocess.run([PY] + argv, capture_output=True, text=True) through
    this thread's server: a CompletedProcess with returncode, stdout and
    stderr."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out, err = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
        for path in (out, err):
            open(path, "w").close()
        child = start(list(argv), env, cwd, err, out)
        try:
            code = child.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, 9)
            child.wait()
            raise
        with open(out) as o, open(err) as e:
            return subprocess.CompletedProcess([PY] + list(argv), code,
                                               o.read(), e.read())


def stop_all():
    for proc in _SERVERS:
        try:
            proc.stdin.close()
            proc.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()

#!/usr/bin/env python3
"""A fork server for the e2e tests (kill/resume, determinism, crash recovery,
training invariants, the runtime's replay tests, hostile runtime inputs):
imports torch once, then forks one child per request, which runs
fault_inject.py with the request's arguments, environment, working
directory and stderr file, in a session of its own (as
`subprocess.Popen(..., start_new_session=True)` did).

Each run of a test script used to import torch afresh (2.1 s of CPU
here): a kill/resume test of 20 trials paid ~90 s for imports alone. A
forked child starts with torch imported and runs the script exactly as a
fresh `python3 fault_inject.py ...` would — same interpreter, same
flags, its own process and process group, SIGKILLed the same way, its
exit status reported as subprocess reports it.

Protocol (one JSON object a line): the harness writes {"argv", "env",
"cwd", "stderr", "stdout"} (zygote_client.py); the server answers {"pid": PID} at once and {"status":
CODE} when that child ends (CODE < 0: killed by signal -CODE). One child
at a time per server.

usage: zygote.py   (PYTHONPATH and OMP_NUM_THREADS as the runs need)
"""
import gc
import json
import os
import sys

import torch  # noqa: F401  (what every child no longer imports)

try:
    # torch 2.x: the first optimizer a script builds imports torch's
    # compiler (add_param_group is dynamo-disabled), another ~1.5 s.
    import torch._dynamo  # noqa: F401
except ImportError:
    pass

import fault_inject

# What the server imported is never collected: kept out of the collector's
# reach, the children's last collection (at their exit) no longer walks
# torch's ~10^6 objects (0.12 of the 0.3 s a child spent ending; fork
# shares them copy-on-write, as the gc docs advise). Nothing the script
# creates is frozen.
gc.freeze()


def child(request, reply):
    os.setsid()
    reply.close()
    null = os.open(os.devnull, os.O_RDWR)
    out = os.open(request.get("stdout", os.devnull), os.O_WRONLY | os.O_CREAT |
                  os.O_APPEND)
    err = os.open(request["stderr"], os.O_WRONLY | os.O_APPEND)
    os.dup2(null, 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    for fd in (null, out, err):
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    # As a fresh interpreter ends: SystemExit's code, a traceback and 1
    # for an exception, atexit handlers (the runtime's) run either way.
    fault_inject.main(request["argv"])
    sys.exit(0)


def main():
    reply = os.fdopen(os.dup(1), "w", buffering=1)
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            child(request, reply)  # never returns
        reply.write(json.dumps({"pid": pid}) + "\n")
        _, status = os.waitpid(pid, 0)
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else \
            os.WEXITSTATUS(status)
        reply.write(json.dumps({"status": code}) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Self-verifying restores (docs/replay.md): a restore that would not
continue the checkpointed run bit for bit stops with exit status 3 and
names what differs; it never continues.

  1. hidden_generator_train.py draws from a generator detc's analysis does
     not see: --detc-resume from a mid-run checkpoint exits 3 naming 'g'
     (a user checkpoint, the replay path), and so does --detc-restart from
     a CheckHint checkpoint (the hint path).
  2. library_dropout_train.py, resumed from a sidecar whose recorded torch
     generator state was altered (and the sidecar re-sealed, as a detc bug
     would write it): exit 3 naming the torch generator. The same sidecar
     unaltered resumes (exit 0).
  3. A sidecar with a malformed fingerprint: exit 2, nothing trained.
  4. distill_train.py (fast-forward skips each epoch's validation pass,
     whose loader the sidecar restores), resumed from a sidecar without
     that loader's state: the run stops with exit 3 naming the loader's
     site where it begins a pass over it again, not with the checkpointed
     run's epochs of it skipped.
  5. auto_resume_train.py, whose own auto-resume loads the newest
     checkpoint and starts at the epoch after it: --detc-resume from the
     epoch-1 checkpoint with it on reaches the checkpoint's instance at
     epoch 3 and exits 3 naming `epoch` (the session-65 first runtime
     ended with exit 0, epochs 2 and 3 untrained); with it off, the resume
     writes the uninterrupted run's last checkpoint bit for bit.
  6. hint_range_train.py transformed with a CheckHint schedule, its
     restore code edited to leave `w` as the setup made it (a sidecar
     re-sealed for the edited script, as a detc bug would emit it): the
     restart exits 3 naming 'w' (the saved values are compared with the
     restored ones as the checkpoint holds them).
  7. own_resume_iters_train.py (nanoGPT's shape: a `while True:` loop,
     `'iter_num': iter_num` in the checkpoint, its own `--init-from
     resume`): --detc-resume with its own resume on exits 3 naming
     'iter_num' (no loop variable shows where the run is); without it the
     resume ends with the uninterrupted run's weights bit for bit.

usage: verify_restore.py --detc BIN --runtime DIR --inputs DIR
"""
import argparse
import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

import zygote_client

# The Python that runs the scripts: Debian's (torch 1.13), or a venv's
# (torch 2.x, test/platform/torch2.py).
PY = os.environ.get("DETC_E2E_PYTHON", "/usr/bin/python3")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--detc", required=True)
    parser.add_argument("--runtime", required=True)
    parser.add_argument("--inputs", required=True)
    args = parser.parse_args()
    sys.path.insert(0, args.runtime)
    from detc_runtime import sidecar

    env = dict(os.environ, PYTHONPATH=args.runtime, OMP_NUM_THREADS="1",
               PYTHONWARNINGS="ignore")
    failures = []

    def transform(name, out, *flags):
        subprocess.run([args.detc, "transform",
                        os.path.join(args.inputs, name), "--emit-python",
                        "-o", out] + list(flags), check=True,
                       capture_output=True)

    def run(script, *argv):
        # In a child of a zygote, which imported torch once.
        return zygote_client.run([script] + list(argv), env, os.getcwd())

    def expect(what, proc, code, *needles):
        ok = proc.returncode == code and all(n in proc.stderr
                                             for n in needles)
        print("%s: exit %d %s" % (what, proc.returncode,
                                  "ok" if ok else "UNEXPECTED"))
        if not ok:
            failures.append("%s: expected exit %d with %r, got %d:\n%s" % (
                what, code, needles, proc.returncode, proc.stderr[-1500:]))

    with tempfile.TemporaryDirectory(prefix="detc-verify-") as tmp:
        hidden = os.path.join(tmp, "hidden.det.py")
        transform("hidden_generator_train.py", hidden)
        ck = os.path.join(tmp, "hidden.pt")
        first = run(hidden, "--epochs", "2", "--ckpt-every", "5",
                    "--crash-after", "10", "--out", ck)
        expect("hidden generator, run that crashes", first, 1)
        resumed = run(hidden, "--epochs", "2", "--ckpt-every", "5", "--out",
                      ck, "--detc-resume", ck)
        expect("hidden generator, --detc-resume", resumed, 3, "'g'",
               "refusing to continue")

        jit = os.path.join(tmp, "hidden.jit.py")
        transform("hidden_generator_train.py", jit, "--jit-checkpoint")
        jck = os.path.join(tmp, "jit.ckpt")
        failed = run(jit, "--epochs", "2", "--raise-at", "11", "--out",
                     os.path.join(tmp, "j.pt"), "--detc-checkpoint", jck)
        expect("hidden generator, injected failure (JIT)", failed, 1,
               "just-in-time checkpoint written")
        restarted = run(jit, "--epochs", "2", "--out",
                        os.path.join(tmp, "j.pt"), "--detc-checkpoint", jck,
                        "--detc-restart")
        expect("hidden generator, --detc-restart (JIT)", restarted, 3,
               "'g'", "refusing to continue")

        hinted = os.path.join(tmp, "range.det.py")
        transform("hint_range_train.py", hinted, "--overhead=0.2",
                  "--ckpt-cost=0.0001")
        hck = os.path.join(tmp, "range.pt")
        expect("hint checkpoints", run(hinted, "--detc-checkpoint", hck), 0)
        with open(hinted) as f:
            text = f.read()
        restore_w = 'w = _detc_rt.hints.value("w", lambda: w)'
        if restore_w not in text:
            failures.append("range.det.py restores no 'w' as %r" % restore_w)
        else:
            missed = os.path.join(tmp, "range.missed.py")
            with open(missed, "w") as f:
                f.write(text.replace(restore_w, "pass"))
            hside = sidecar.sidecar_path(hck)
            with open(hside, "rb") as f:
                body = sidecar.decode(f.read(), hside)
            with open(missed, "rb") as f:
                body["script_sha256"] = hashlib.sha256(f.read()).hexdigest()
            with open(hside, "wb") as f:
                f.write(sidecar.encode(body))
            expect("hint restore that leaves 'w' unrestored",
                   run(missed, "--detc-resume", hck, "--detc-checkpoint",
                       os.path.join(tmp, "range2.pt")), 3, "'w'",
                   "refusing to continue")

        lib = os.path.join(tmp, "lib.det.py")
        transform("library_dropout_train.py", lib)
        lck = os.path.join(tmp, "lib.pt")
        run(lib, "--epochs", "2", "--ckpt-every", "5", "--crash-after", "10",
            "--out", lck)
        side = sidecar.sidecar_path(lck)
        if os.path.exists(side + ".tmp"):
            # The crash came before the durability thread renamed the
            # newest sidecar (loading takes it): make it the sidecar.
            os.replace(side + ".tmp", side)
        with open(lck, "rb") as f:
            checkpoint = f.read()
        with open(side, "rb") as f:
            good = f.read()

        def resume_with(sidecar_bytes):
            with open(lck, "wb") as f:
                f.write(checkpoint)
            with open(side, "wb") as f:
                f.write(sidecar_bytes)
            return run(lib, "--epochs", "2", "--ckpt-every", "5", "--out",
                       lck, "--detc-resume", lck)

        body = sidecar.decode(good, side)
        fp = body["fingerprint"]
        state = bytearray(base64.b64decode(fp["globals"]["torch"]["bytes"]))
        # The low byte of word 300 of the Mersenne twister's state (torch
        # keeps each 32-bit word in 8 bytes after a 24-byte header).
        state[24 + 8 * 300] ^= 1
        fp["globals"]["torch"]["bytes"] = base64.b64encode(bytes(state)
                                                           ).decode()
        expect("altered torch generator state",
               resume_with(sidecar.encode(body)), 3,
               "the torch generator's state")
        body["fingerprint"] = {"globals": [], "sequential": 5}
        expect("malformed fingerprint", resume_with(sidecar.encode(body)), 2,
               "fingerprint is malformed")
        expect("intact sidecar", resume_with(good), 0, "resumed from")

        dist = os.path.join(tmp, "distill.det.py")
        transform("distill_train.py", dist)
        dck = os.path.join(tmp, "distill.pt")
        expect("distill, run that crashes after epoch 1",
               run(dist, "--epochs", "3", "--crash-after", "1", "--out",
                   dck), 1, "crash after epoch 1")
        dside = sidecar.sidecar_path(dck)
        if os.path.exists(dside + ".tmp"):
            os.replace(dside + ".tmp", dside)
        with open(dside, "rb") as f:
            dgood = f.read()
        body = sidecar.decode(dgood, dside)
        if "val_loader" not in body["values"]:
            failures.append("distill: the sidecar holds no 'val_loader'")
        else:
            del body["values"]["val_loader"]
            with open(dside, "wb") as f:
                f.write(sidecar.encode(body))
            expect("loader state left out of the sidecar",
                   run(dist, "--epochs", "3", "--out", dck, "--detc-resume",
                       dck), 3, "a pass over the DataLoader at site",
                   "distill.det.py:")
            with open(dside, "wb") as f:
                f.write(dgood)
            expect("distill, intact sidecar",
                   run(dist, "--epochs", "3", "--out", dck, "--detc-resume",
                       dck), 0, "resumed from")

        auto = os.path.join(tmp, "auto.det.py")
        transform("auto_resume_train.py", auto)
        full, cut = os.path.join(tmp, "auto-full"), os.path.join(tmp, "auto")
        expect("auto-resume, uninterrupted", run(auto, "--out", full), 0)
        # A run that died after epoch 1's checkpoint: the files it left.
        shutil.copytree(full, cut)
        for name in os.listdir(cut):
            if name.startswith(("ckpt_2.", "ckpt_3.")):
                os.remove(os.path.join(cut, name))
        ck1 = os.path.join(cut, "ckpt_1.pt")
        expect("the script's own auto-resume under --detc-resume",
               run(auto, "--out", cut, "--auto-resume", "--detc-resume",
                   ck1), 3, "with epoch = 3",
               "it was written with epoch = 1")
        expect("--detc-resume without the script's own",
               run(auto, "--out", cut, "--detc-resume", ck1), 0,
               "resumed from")
        import torch
        last = [torch.load(os.path.join(d, "ckpt_3.pt"))["model"]
                if os.path.exists(os.path.join(d, "ckpt_3.pt")) else None
                for d in (full, cut)]
        if last[1] is None or any(
                not torch.equal(last[0][k], last[1][k]) for k in last[0]):
            failures.append("auto-resume: the resumed run's last "
                            "checkpoint differs from the uninterrupted "
                            "run's")

        iters = os.path.join(tmp, "iters.det.py")
        transform("own_resume_iters_train.py", iters)
        ifull, ick = (os.path.join(tmp, "iters-full.pt"),
                      os.path.join(tmp, "iters.pt"))
        expect("own resume by iteration, uninterrupted",
               run(iters, "--out", ifull), 0)
        expect("own resume by iteration, run that crashes at 12",
               run(iters, "--out", ick, "--crash-at", "12"), 1,
               "crash at iteration 12")
        expect("nanoGPT's own resume under --detc-resume",
               run(iters, "--out", ick, "--init-from", "resume",
                   "--detc-resume", ick), 3, "'iter_num' = 20",
               "the checkpoint holds 10")
        expect("--detc-resume without nanoGPT's own",
               run(iters, "--out", ick, "--detc-resume", ick), 0,
               "resumed from")
        finals = [torch.load(p + ".final")["model"]
                  if os.path.exists(p + ".final") else None
                  for p in (ifull, ick)]
        if finals[1] is None or any(
                not torch.equal(finals[0][k], finals[1][k])
                for k in finals[0]):
            failures.append("own resume by iteration: the resumed run's "
                            "weights differ from the uninterrupted run's")

    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        status = main()
    finally:
        zygote_client.stop_all()
    sys.exit(status)

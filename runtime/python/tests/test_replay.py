"""Replay runtime: the sidecar format and its checks, resume from every
checkpoint, SIGKILL at random moments, --detc-replay --until, and every
bad input (missing, torn, edited, foreign sidecar; other script; other
seed). Runs Inputs/replay_train.py, written as `detc transform` emits.

usage: PYTHONPATH=build/python python3 test_replay.py
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import torch

from detc_runtime import sidecar

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "Inputs", "replay_train.py")


def run(out, *args, env=None, check=True):
    proc = subprocess.run([sys.executable, SCRIPT, out] + list(args),
                          capture_output=True, text=True,
                          env=dict(os.environ, **(env or {})))
    if check and proc.returncode != 0:
        raise AssertionError("exit %d: %s" % (proc.returncode, proc.stderr))
    return proc


def read(path):
    with open(path, "rb") as f:
        return f.read()


def weights(path):
    state = torch.load(path)
    return state["model"], state.get("running")


def same(a, b):
    (ma, ra), (mb, rb) = a, b
    return ra == rb and all(torch.equal(ma[k], mb[k]) for k in ma)


def steps(out):
    return sorted(int(f[5:-3]) for f in os.listdir(out)
                  if f.startswith("ckpt-") and f.endswith(".pt"))


class ReplayTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.ref = os.path.join(cls.tmp, "ref")
        os.mkdir(cls.ref)
        run(cls.ref)
        cls.final = weights(os.path.join(cls.ref, "final.pt"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def fresh(self, name):
        out = os.path.join(self.tmp, name)
        shutil.copytree(self.ref, out)
        os.remove(os.path.join(out, "final.pt"))
        return out

    def test_resume_from_every_checkpoint(self):
        # 7 batches per epoch, a checkpoint every 3 steps: starts, middles
        # and last steps of epochs (7, 14, 21) are all among them.
        out = self.fresh("every")
        self.assertEqual(steps(out), [3, 6, 9, 12, 15, 18, 21])
        for s in steps(out):
            before = read(os.path.join(out, "ckpt-%d.pt" % s))
            proc = run(out, "--detc-resume", os.path.join(out, "ckpt-%d.pt"
                                                          % s))
            self.assertIn("resumed from", proc.stderr)
            self.assertTrue(same(weights(os.path.join(out, "final.pt")),
                                 self.final), "resume from step %d" % s)
            after = read(os.path.join(out, "ckpt-%d.pt" % s))
            self.assertEqual(before, after)

    def test_sigkill_at_random_moments(self):
        rng = random.Random(1234)
        for trial in range(6):
            out = os.path.join(self.tmp, "kill%d" % trial)
            os.mkdir(out)
            proc = subprocess.Popen([sys.executable, SCRIPT, out])
            time.sleep(rng.uniform(0.6, 2.0))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            done = steps(out)
            resume = (["--detc-resume", os.path.join(out, "ckpt-%d.pt" %
                                                     done[-1])]
                      if done else [])
            run(out, *resume)
            self.assertTrue(same(weights(os.path.join(out, "final.pt")),
                                 self.final), "trial %d (%s)" % (trial, done))

    def test_kill_between_the_two_renames_rolls_forward(self):
        out = self.fresh("torn-commit")
        ckpt = os.path.join(out, "ckpt-9.pt")
        side = sidecar.sidecar_path(ckpt)
        # As if killed after the checkpoint's rename, before the sidecar's:
        # the new sidecar is still at .tmp, the old one (another
        # checkpoint's) in place.
        os.replace(side, side + ".tmp")
        shutil.copy(sidecar.sidecar_path(os.path.join(out, "ckpt-6.pt")),
                    side)
        run(out, "--detc-resume", ckpt)
        self.assertTrue(same(weights(os.path.join(out, "final.pt")),
                             self.final))

    def test_replay_until(self):
        out = self.fresh("replay")
        for s in (12, 15, 18, 21):
            os.remove(os.path.join(out, "ckpt-%d.pt" % s))
        proc = run(out, "--detc-replay", os.path.join(out, "ckpt-3.pt"),
                   "--until", "1:4")
        self.assertIn("replay reached epoch 1 step 4", proc.stderr)
        # Batch 4 of epoch 1 is step 12: its checkpoint was written, the
        # next one was not, and it equals the uninterrupted run's.
        self.assertEqual(steps(out)[-1], 12)
        self.assertFalse(os.path.exists(os.path.join(out, "final.pt")))
        a = torch.load(os.path.join(out, "ckpt-12.pt"))
        b = torch.load(os.path.join(self.ref, "ckpt-12.pt"))
        for k in a["model"]:
            self.assertTrue(torch.equal(a["model"][k], b["model"][k]))

    def expect_error(self, out, args, message, env=None):
        files = {f: read(os.path.join(out, f))
                 for f in os.listdir(out)}
        proc = run(out, *args, env=env, check=False)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn(message, proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        now = {f: read(os.path.join(out, f))
               for f in os.listdir(out)}
        self.assertEqual(files, now, "nothing written or overwritten")

    def test_bad_inputs(self):
        out = self.fresh("bad")
        ckpt = os.path.join(out, "ckpt-9.pt")
        side = sidecar.sidecar_path(ckpt)
        good = read(side)
        self.expect_error(out, ["--detc-resume", ckpt + "x"],
                          "no such checkpoint file")
        os.remove(side)
        self.expect_error(out, ["--detc-resume", ckpt], "missing")
        with open(side, "wb") as f:
            f.write(good[:len(good) // 2])
        self.expect_error(out, ["--detc-resume", ckpt], "torn or corrupt")
        with open(side, "wb") as f:
            f.write(good.replace(b'"instance":3', b'"instance":4'))
        self.expect_error(out, ["--detc-resume", ckpt], "integrity hash")
        shutil.copy(sidecar.sidecar_path(os.path.join(out, "ckpt-6.pt")),
                    side)
        self.expect_error(out, ["--detc-resume", ckpt],
                          "belongs to another checkpoint")
        body = sidecar.decode(good, side)
        with open(side, "wb") as f:
            f.write(sidecar.encode(dict(body, script_sha256="cd" * 32)))
        self.expect_error(out, ["--detc-resume", ckpt], "another script")
        with open(side, "wb") as f:
            f.write(good)
        self.expect_error(out, ["--detc-resume", ckpt], "seed override",
                          env={"DETC_SEED": "5"})
        self.expect_error(out, ["--until", "1:2"], "--until is for")
        self.expect_error(out, ["--detc-replay", ckpt], "needs --until")
        with open(ckpt, "ab") as f:
            f.write(b"\0")
        self.expect_error(out, ["--detc-resume", ckpt],
                          "belongs to another checkpoint")


if __name__ == "__main__":
    unittest.main()

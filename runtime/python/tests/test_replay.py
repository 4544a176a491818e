"""Replay runtime: the sidecar format and its checks, resume from every
checkpoint, SIGKILL at random moments, --detc-replay --detc-until, and
every bad input (missing, torn, edited, foreign sidecar; other script or
an edited copy of it; other seed; a bad DETC_SEED); resumes that never
reach their checkpoint (exit 3); checkpoint paths that are symlinks,
read-only, or written by two runs at once. Runs Inputs/replay_train.py,
written as `detc transform` emits.

usage: PYTHONPATH=build/python python3 test_replay.py
"""
import io
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


# Runs go through the e2e tests' fork server (test/e2e/zygote.py), which
# imports torch once: each run used to spend ~2 s importing it.
os.environ.setdefault("DETC_E2E_PYTHON", sys.executable)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "test", "e2e"))
import zygote_client  # noqa: E402


def run(out, *args, env=None, check=True):
    proc = zygote_client.run([SCRIPT, out] + list(args),
                             dict(os.environ, **(env or {})), os.getcwd())
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
        # When, from its start in the fork server (whose first run imported
        # torch), the script writes its checkpoints: from shortly before
        # the first to its last file. Random kills fall in that window
        # (the script's own work is ~0.1 s of the process's ~0.4).
        timed = os.path.join(cls.tmp, "timed")
        os.mkdir(timed)
        started = time.time()
        run(timed)
        written = sorted(os.stat(os.path.join(timed, f)).st_mtime - started
                         for f in os.listdir(timed))
        cls.window = (max(0.0, written[0] - 0.01), written[-1])
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
        # Timed from the script's start in the fork server, whose torch is
        # imported: kills timed from the interpreter's start (0.6-2 s) fell
        # mostly into `import torch`, and under torch 2.x (a 2.4 s import)
        # all of them did.
        rng = random.Random(1234)
        for trial in range(6):
            out = os.path.join(self.tmp, "kill%d" % trial)
            os.mkdir(out)
            child = zygote_client.start([SCRIPT, out], dict(os.environ),
                                        os.getcwd(), os.devnull)
            time.sleep(rng.uniform(*self.window))
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass  # it had ended
            child.wait()
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
                   "--detc-until", "1:4")
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
        self.expect_error(out, ["--detc-until", "1:2"], "--detc-until is for")
        self.expect_error(out, ["--detc-replay", ckpt], "needs --detc-until")
        with open(ckpt, "ab") as f:
            f.write(b"\0")
        self.expect_error(out, ["--detc-resume", ckpt],
                          "belongs to another checkpoint")

    def test_hostile_sidecars(self):
        """NaN, nesting 100k deep, a re-hashed sidecar without its
        generators' seeds, with a malformed loader position, a malformed
        state beyond an optimizer's state_dict, malformed logged
        decisions or recorded values: exit 2 with a message,
        never a ValueError, RecursionError, KeyError or AttributeError."""
        out = self.fresh("hostile")
        ckpt = os.path.join(out, "ckpt-9.pt")
        side = sidecar.sidecar_path(ckpt)
        good = read(side)
        body = sidecar.decode(good, side)
        for data, message in (
                (good.replace(b'"instance":3', b'"instance":NaN'),
                 "NaN or infinity"),
                (good.replace(b'"instance":3', b'"instance":Infinity'),
                 "NaN or infinity"),
                (b'{"format": "detc-sidecar", "x": ' + b"[" * 100000 +
                 b"]" * 100000 + b"}", "nested too deep"),
                (sidecar.encode(dict(body, seeds={"override": None})),
                 "no valid 'seeds'"),
                (sidecar.encode(dict(body, seeds={
                    "override": None, "generators": {"0": "x"}})),
                 "no valid 'seeds'"),
                (sidecar.encode(dict(body, loaders={"1": {"epoch": 0}})),
                 "loader position"),
                (sidecar.encode(dict(body, beyond=["optimizer"])),
                 "\"beyond\" is malformed"),
                (sidecar.encode(dict(body, beyond={"optimizer": 7})),
                 "state of 'optimizer' is malformed"),
                (sidecar.encode(dict(body, decisions={"1": "0120"})),
                 "logged decisions are not valid"),
                (sidecar.encode(dict(body, decisions={"x": "01"})),
                 "logged decisions are not valid"),
                (sidecar.encode(dict(body, decisions=["01"])),
                 "logged decisions are not valid"),
                # Recorded clock reads are data, never code to run.
                (sidecar.encode(dict(body, recorded={"1": [{
                    "datetime": "__import__('os').system('x')"}]})),
                 "recorded values are not valid"),
                (sidecar.encode(dict(body, recorded={"1": [{"int": True}]})),
                 "recorded values are not valid"),
                (sidecar.encode(dict(body, recorded={"1": {"str": "x"}})),
                 "recorded values are not valid")):
            with open(side, "wb") as f:
                f.write(data)
            self.expect_error(out, ["--detc-resume", ckpt], message)

    def expect_unfinished(self, out, args, *messages):
        proc = run(out, *args, check=False)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn("error: the run ended without reaching the", proc.stderr)
        for m in messages:
            self.assertIn(m, proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)

    def test_resume_that_never_reaches_its_checkpoint_exits_3(self):
        out = self.fresh("unreached")
        # An epoch-3 checkpoint resumed with one epoch: it exited 0, having
        # trained nothing.
        self.expect_unfinished(
            out, ["--epochs", "1", "--detc-resume",
                  os.path.join(out, "ckpt-15.pt")],
            "checkpoint (site 3, run 5, epoch 2 step 1)",
            "--epochs 1 (absent in the checkpointed run)")
        # Another checkpoint interval: the site never runs a 3rd time.
        self.expect_unfinished(
            out, ["--every", "100", "--detc-resume",
                  os.path.join(out, "ckpt-9.pt")],
            "--every 100 (absent in the checkpointed run)")
        # --detc-until past the end of its epoch (7 batches per epoch).
        self.expect_unfinished(
            out, ["--detc-replay", os.path.join(out, "ckpt-3.pt"),
                  "--detc-until", "1:50"],
            "--detc-until position epoch 1 step 50")

    def test_restore_that_leaves_state_out_exits_3(self):
        # The checkpoint's entries are digested as the resume loads them
        # and compared with the state the restore code leaves.
        out = self.fresh("forgot")
        proc = run(out, "--detc-resume", os.path.join(out, "ckpt-9.pt"),
                   env={"REPLAY_TRAIN_FORGET_OPT": "1"}, check=False)
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertIn("'opt': the restored state differs", proc.stderr)
        self.assertNotIn("'model'", proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "final.pt")))

    def test_edited_script_refused(self):
        # The hash covers the code that runs, not the script detc was given:
        # a hyperparameter edited in the emitted script is another script.
        out = self.fresh("edited")
        with open(SCRIPT) as f:
            text = f.read()
        edited = os.path.join(self.tmp, "edited_train.py")
        with open(edited, "w") as f:
            f.write(text.replace("lr=0.1", "lr=0.2"))
        proc = subprocess.run(
            [sys.executable, edited, out, "--detc-resume",
             os.path.join(out, "ckpt-9.pt")], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn("written by another script", proc.stderr)
        # The same bytes elsewhere are the same script.
        same_copy = os.path.join(self.tmp, "copy_train.py")
        shutil.copy(SCRIPT, same_copy)
        proc = subprocess.run(
            [sys.executable, same_copy, out, "--detc-resume",
             os.path.join(out, "ckpt-9.pt")], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_bad_seed_environment(self):
        out = self.fresh("seed")
        for bad in ("", "abc", "-1", str(2 ** 64), "1.5"):
            self.expect_error(out, [], "DETC_SEED=%r: expected an integer "
                              "seed in [0, 2^64 - 1]" % bad,
                              env={"DETC_SEED": bad})

    def test_start_line(self):
        # One line, as the run starts, says what detc does and how to
        # resume; a resume names its checkpoint; DETC_QUIET=1 hides it; a
        # long fast-forward reports its progress.
        out = self.fresh("start")
        line = "detc: deterministic run ("
        fresh = run(out).stderr
        self.assertEqual(fresh.count(line), 1, fresh)
        self.assertIn("rerun with --detc-resume CHECKPOINT", fresh)
        ckpt = os.path.join(out, "ckpt-9.pt")
        resumed = run(out, "--detc-resume", ckpt).stderr
        self.assertIn(line, resumed)
        self.assertIn("resuming from %s" % ckpt, resumed)
        seeded = os.path.join(self.tmp, "start7")
        os.mkdir(seeded)
        self.assertIn("seed 7, from --seed or DETC_SEED",
                      run(seeded, env={"DETC_SEED": "7"}).stderr)
        quiet = run(out, env={"DETC_QUIET": "1"}).stderr
        self.assertNotIn(line, quiet)
        # A long fast-forward says where it is (here at every batch).
        late = os.path.join(out, "ckpt-21.pt")
        progress = run(out, "--detc-resume", late,
                       env={"DETC_PROGRESS_SECONDS": "0"}).stderr
        self.assertIn("detc-runtime: fast-forwarding to %s: at epoch 0, "
                      "step 1; the checkpoint is at epoch 2, step 7" % late,
                      progress)
        self.assertNotIn("fast-forwarding", run(
            out, "--detc-resume", late).stderr)
        self.expect_error(out, [], "DETC_PROGRESS_SECONDS='-1': must be at "
                          "least 0", env={"DETC_PROGRESS_SECONDS": "-1"})
        self.expect_error(out, [], "DETC_QUIET='yes': must be one of",
                          env={"DETC_QUIET": "yes"})

    def test_read_only_checkpoint_is_kept(self):
        out = os.path.join(self.tmp, "readonly")
        os.mkdir(out)
        ckpt = os.path.join(out, "ckpt-3.pt")
        with open(ckpt, "wb") as f:
            f.write(b"precious")
        os.chmod(ckpt, 0o444)
        proc = run(out, check=False)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("PermissionError", proc.stderr)
        self.assertEqual(read(ckpt), b"precious")
        self.assertEqual(os.stat(ckpt).st_mode & 0o777, 0o444)
        self.assertEqual([f for f in os.listdir(out) if "detc-tmp" in f], [])

    def test_save_into_a_missing_folder_raises_torchs_own_error(self):
        """The script's handlers see the exception the plain script
        raises (torch's RuntimeError), with nothing of detc's chained to
        it, and nothing is written."""
        out = os.path.join(self.tmp, "no-such-folder")
        proc = run(out, check=False)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("RuntimeError", proc.stderr)
        self.assertNotIn("During handling", proc.stderr)
        self.assertNotIn("detc does not write", proc.stderr)
        self.assertFalse(os.path.exists(out))

    def test_symlinked_checkpoint_is_written_through(self):
        out = os.path.join(self.tmp, "links")
        volume = os.path.join(self.tmp, "volume")
        os.mkdir(out)
        os.mkdir(volume)
        for s in (3, 6, 9):
            target = os.path.join(volume, "c%d.pt" % s)
            with open(target, "wb") as f:
                f.write(b"stale")
            os.chmod(target, 0o640)
            os.symlink(target, os.path.join(out, "ckpt-%d.pt" % s))
        run(out, "--stop-after", "10", check=False)
        for s in (3, 6, 9):
            link = os.path.join(out, "ckpt-%d.pt" % s)
            target = os.path.join(volume, "c%d.pt" % s)
            self.assertTrue(os.path.islink(link))
            self.assertEqual(read(target),
                             read(os.path.join(self.ref, "ckpt-%d.pt" % s)))
            self.assertEqual(os.stat(target).st_mode & 0o777, 0o640)
            # The sidecar sits beside the target, never beside the link:
            # committed, or (the run ended by os._exit before the commit's
            # tail) still at .tmp, which loading accepts (docs/replay.md).
            side = sidecar.sidecar_path(target)
            self.assertTrue(os.path.exists(side) or
                            os.path.exists(side + ".tmp"))
            self.assertFalse(os.path.lexists(sidecar.sidecar_path(link)))
        run(out, "--detc-resume", os.path.join(out, "ckpt-9.pt"))
        self.assertTrue(same(weights(os.path.join(out, "final.pt")),
                             self.final))

    def test_two_runs_writing_the_same_checkpoints(self):
        out = os.path.join(self.tmp, "race")
        os.mkdir(out)
        procs = [subprocess.Popen([sys.executable, SCRIPT, out, "--every",
                                   "1"], stderr=subprocess.PIPE, text=True)
                 for _ in range(2)]
        for p in procs:
            _, err = p.communicate()
            self.assertEqual(p.returncode, 0, err)
        for s in steps(out):
            ckpt = os.path.join(out, "ckpt-%d.pt" % s)
            body = sidecar.load(ckpt)  # a pair that belongs together
            self.assertEqual(body["instance"], s)
        self.assertEqual([f for f in os.listdir(out) if "tmp" in f], [])



def _read(path):
    with open(path, "rb") as f:
        return f.read()


class CheckpointFileTest(unittest.TestCase):
    """A checkpoint written into a file the script opens (`with open(path,
    "wb") as f: torch.save(model, f)`): checkpoint_files.py."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="detc-ckpt-file-")
        self.path = os.path.join(self.dir, "model.pt")
        self.addCleanup(shutil.rmtree, self.dir)
        self.addCleanup(sidecar.DURABILITY.wait)  # (runs first)

    def _checkpoint(self, state):
        from detc_runtime import replay
        with replay.checkpoint_file(open)(self.path, "wb") as f:
            replay.checkpoint(1, torch.save)(state, f)
            self.assertFalse(f.closed)

    def test_commits_with_a_sidecar_and_keeps_the_old_pair_until_then(self):
        from detc_runtime import checkpoint_files, replay
        self._checkpoint({"w": torch.ones(3)})
        first = _read(self.path)
        instance = sidecar.load(self.path)["instance"]
        with replay.checkpoint_file(open)(self.path, "wb") as f:
            # The script's open truncated nothing: a kill now (or during
            # the save) resumes from the previous pair.
            self.assertEqual(_read(self.path), first)
            sidecar.load(self.path)
            replay.checkpoint(1, torch.save)({"w": torch.zeros(3)}, f)
        self.assertEqual(sidecar.load(self.path)["instance"], instance + 1)
        self.assertTrue(torch.equal(torch.load(self.path)["w"],
                                    torch.zeros(3)))
        sidecar.DURABILITY.wait()
        # The pair, and the holder prepared for the next commit.
        self.assertEqual([n for n in sorted(os.listdir(self.dir))
                          if not n.startswith(".detc-held-")],
                         ["model.pt", "model.pt.detc.json"])
        self.assertIsNone(checkpoint_files.held(f))

    def test_a_block_that_raises_commits_nothing(self):
        from detc_runtime import replay
        self._checkpoint({"w": torch.ones(3)})
        first = _read(self.path)
        with self.assertRaises(KeyError):
            with replay.checkpoint_file(open)(self.path, "wb") as f:
                f.write(b"half a checkpoint")
                raise KeyError("the save failed")
        self.assertEqual(_read(self.path), first)
        sidecar.load(self.path)

    def test_a_block_without_a_checkpoint_writes_the_file_as_open_would(self):
        from detc_runtime import replay
        self._checkpoint({"w": torch.ones(3)})
        with replay.checkpoint_file(open)(self.path, "wb") as f:
            f.write(b"not a checkpoint")
        self.assertEqual(_read(self.path), b"not a checkpoint")
        with self.assertRaisesRegex(sidecar.SidecarError, "another"):
            sidecar.load(self.path)  # the old sidecar pairs with nothing

    def test_fast_forward_opens_nothing(self):
        from detc_runtime import replay
        self._checkpoint({"w": torch.ones(3)})
        first = _read(self.path)
        replay.REPLAY.ff = True
        try:
            with replay.checkpoint_file(open)(self.path, "wb") as f:
                self.assertEqual(f.name, self.path)
                f.write(b"discarded")
            with replay.checkpoint_file(open)(self.path, "rb") as f:
                self.assertEqual(f.read(), first)  # reading opens the file
        finally:
            replay.REPLAY.ff = False
        self.assertEqual(_read(self.path), first)

    def test_a_file_opened_outside_a_with(self):
        # `f = open(path, "wb"); torch.save(model, f); f.close()`: the
        # same commit as in a `with`; in fast-forward nothing is opened
        # (the script's own open truncated the checkpoint being resumed
        # from); a file dropped with no save replaces it as open would.
        from detc_runtime import replay
        self._checkpoint({"w": torch.ones(3)})
        first = _read(self.path)
        instance = sidecar.load(self.path)["instance"]
        f = replay.checkpoint_file(open)(self.path, "wb").opened()
        self.assertEqual(_read(self.path), first)
        replay.checkpoint(1, torch.save)({"w": torch.zeros(3)}, f)
        f.close()
        self.assertEqual(sidecar.load(self.path)["instance"], instance + 1)
        self.assertTrue(torch.equal(torch.load(self.path)["w"],
                                    torch.zeros(3)))
        committed = _read(self.path)
        replay.REPLAY.ff = True
        try:
            f = replay.checkpoint_file(open)(self.path, "wb").opened()
            f.write(b"discarded")
            f.close()
        finally:
            replay.REPLAY.ff = False
        self.assertEqual(_read(self.path), committed)
        f = replay.checkpoint_file(open)(self.path, "wb").opened()
        f.write(b"not a checkpoint")
        f.close()
        del f
        self.assertEqual(_read(self.path), b"not a checkpoint")

    def test_a_file_opened_once_for_a_loops_saves(self):
        # `f = open(path, "wb")` before `for epoch ...: torch.save(model,
        # f)`: opened as written; in fast-forward, when it is the checkpoint
        # resumed from, nothing is opened until fast-forward is over (the
        # script's `open` truncated the checkpoint before the restore read
        # it), then the saves after the resume follow the checkpoint's as
        # they did in the uninterrupted run.
        import io
        from detc_runtime import replay
        states = [{"w": torch.full((3,), float(i))} for i in range(3)]
        across = replay.checkpoint_file(open, across_saves=True)
        f = across(self.path, "wb")
        self.assertIsInstance(f, io.BufferedWriter)
        for state in states:
            replay.checkpoint(1, torch.save)(state, f)
        f.close()
        uninterrupted = _read(self.path)
        # The run killed after its first save: the checkpoint and its
        # sidecar.
        with across(self.path, "wb") as f:
            replay.checkpoint(1, torch.save)(states[0], f)
        first = _read(self.path)
        sidecar.load(self.path)  # whole: a run can resume from it
        replay.REPLAY.ff, replay.REPLAY.checkpoint = True, self.path
        try:
            f = across(self.path, "wb")
            other = across(os.path.join(self.dir, "other.pt"), "wb")
            self.assertIsInstance(other, io.BufferedWriter)
            other.close()
            self.assertEqual(_read(self.path), first)
            self.assertEqual(f.tell(), 0)
        finally:
            replay.REPLAY.ff, replay.REPLAY.checkpoint = False, None
        for state in states[1:]:
            replay.checkpoint(1, torch.save)(state, f)
        f.close()
        self.assertEqual(_read(self.path), uninterrupted)
        self.assertTrue(torch.equal(torch.load(self.path)["w"],
                                    torch.zeros(3)))

    def test_a_file_opened_elsewhere_is_written_in_place(self):
        from detc_runtime import checkpoint_files, replay
        with open(self.path, "wb") as f:
            self.assertEqual(checkpoint_files.in_place_path(f), self.path)
            replay.checkpoint(1, torch.save)({"w": torch.ones(2)}, f)
        self.assertEqual(sidecar.load(self.path)["site"], 1)
        with open(self.path, "ab") as f:
            self.assertIsNone(checkpoint_files.in_place_path(f))
        with open(self.path, "rb") as f:
            self.assertIsNone(checkpoint_files.in_place_path(f))
        self.assertIsNone(checkpoint_files.in_place_path(io.BytesIO()))


class _Guards(torch.utils.data.Dataset):
    """What guard() and nest_guard() say where each example is fetched."""

    def __len__(self):
        return 4

    def __getitem__(self, i):
        from detc_runtime import replay
        return torch.tensor([replay.guard(), replay.nest_guard()])


class GuardTest(unittest.TestCase):
    def test_statements_run_in_a_loader_worker_during_fast_forward(self):
        # A worker forked while the main process fast-forwards fetches
        # real examples (a loop that takes real batches there: timm's
        # prefetcher): a dataset's statements guarded as code the training
        # loop reaches must run in it (timm's ImageDataset skipped opening
        # the image and handed its transforms a file object).
        from detc_runtime import replay
        replay.REPLAY.ff, replay.REPLAY.nest_calls = True, 1
        try:
            self.assertFalse(replay.guard())
            self.assertFalse(replay.nest_guard())
            loader = torch.utils.data.DataLoader(_Guards(), batch_size=2,
                                                 num_workers=1)
            fetched = torch.cat(list(loader))
        finally:
            replay.REPLAY.ff, replay.REPLAY.nest_calls = False, 0
        self.assertTrue(bool(fetched.all()), fetched)


if __name__ == "__main__":
    try:
        unittest.main()
    finally:
        zygote_client.stop_all()

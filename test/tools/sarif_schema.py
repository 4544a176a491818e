"""Validates detc's SARIF against the SARIF 2.1.0 JSON schema.

The schema (Inputs/sarif-schema-2.1.0.json) is OASIS's, as published with
the standard (sarif-2.1/schema in github.com/oasis-tcs/sarif-spec, errata
01); it is data, vendored so that the test needs no network to find it.
jsonschema comes from PyPI into a virtual environment made once per build
directory (--venv).

Checked: `detc analyze` over a whole project (the bundled examples and the
end-to-end inputs: one run, every file's results), over one script, and
`detc check` on a trace with violations. A SARIF log that a code-scanning
service would reject fails the test with the schema's own message.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def venv_python(venv):
    py = os.path.join(venv, "bin", "python")
    probe = [py, "-c", "import jsonschema"]
    if os.path.exists(py) and subprocess.run(probe).returncode == 0:
        return py
    subprocess.run([sys.executable, "-m", "venv", "--clear", venv], check=True)
    subprocess.run([py, "-m", "pip", "install", "-q",
                    "--disable-pip-version-check", "jsonschema"], check=True)
    return py


VALIDATE = """
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft4Validator(schema)
failed = 0
for path in sys.argv[2:]:
    errors = sorted(validator.iter_errors(json.load(open(path))),
                    key=lambda e: list(e.path))
    for e in errors[:5]:
        print("%s: %s at %s" % (path, e.message, "/".join(map(str, e.path))))
    failed += bool(errors)
    print("%s: %s" % (path, "invalid" if errors else "valid"))
sys.exit(1 if failed else 0)
"""


def run(cmd, expect):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode not in expect:
        sys.exit("%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr))
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--detc", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--venv", required=True)
    args = ap.parse_args()
    py = venv_python(args.venv)
    schema = os.path.join(HERE, "Inputs", "sarif-schema-2.1.0.json")
    with tempfile.TemporaryDirectory() as tmp:
        logs = []

        def save(name, text):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            logs.append(path)
            return json.loads(text)

        project = save("project.sarif", run(
            [args.detc, "analyze", "--no-config", "--format=sarif",
             os.path.join(args.root, "examples"),
             os.path.join(args.root, "test", "e2e", "Inputs")], {0, 2}))
        uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
                for r in project["runs"][0]["results"]
                for loc in r["locations"]}
        # One run holds the results of many files.
        if len(project["runs"]) != 1 or len(uris) < 10:
            sys.exit("expected one run with results in at least 10 files, "
                     "got %d run(s), files %s" % (len(project["runs"]), uris))
        save("one.sarif", run(
            [args.detc, "analyze", "--no-config", "--format=sarif",
             os.path.join(args.root, "examples", "augment_train.py")], {0}))
        good = os.path.join(tmp, "good.jsonl")
        bad = os.path.join(tmp, "bad.jsonl")
        make = os.path.join(HERE, "Inputs", "make_trace.py")
        run([sys.executable, make, good] +
            ["forward:m/finite=true,backward"] * 4, {0})
        run([sys.executable, make, bad] +
            ["forward:m/finite=false,backward"] * 3, {0})
        inv = os.path.join(tmp, "inv.json")
        run([args.detc, "infer", good, "-o", inv], {0})
        save("check.sarif", run([args.detc, "check", bad, "--invariants", inv,
                                 "--format=sarif"], {0, 1}))
        p = subprocess.run([py, "-c", VALIDATE, schema] + logs)
        sys.exit(p.returncode)


if __name__ == "__main__":
    main()

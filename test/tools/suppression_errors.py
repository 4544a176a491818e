# Malformed ignore comments are errors with the comment's file:line:col and
# exit status 2 (nothing is reported): a bare `ignore` (it would hide every
# rule), an unknown rule (with a suggestion), a missing `]`. Other `detc:`
# comments and `#` inside strings are not ignore comments.
# RUN: not detc analyze %s 2>&1 | FileCheck %s
# RUN: sh -c 'detc analyze %s; test $? -eq 2' >/dev/null 2>&1
import torch

# CHECK: suppression_errors.py:[[@LINE+1]]:12: error: a bare 'detc: ignore' is not accepted: name the rules it suppresses, as in '# detc: ignore[detc-unsafe-rng] -- reason'
x = 1      # detc: ignore
# CHECK: suppression_errors.py:[[@LINE+1]]:7: error: unknown rule 'detc-unsafe-rnd' in 'detc: ignore[...]'; did you mean 'detc-unsafe-rng'?
y = 2 # detc: ignore[detc-unsafe-rnd]
# CHECK: suppression_errors.py:[[@LINE+1]]:7: error: the rule list of 'detc: ignore[' has no closing ']'
z = 3 # detc: ignore[detc-unsafe-rng
# Each rule once (300k repeats of one name took minutes).
# CHECK: suppression_errors.py:[[@LINE+1]]:7: error: rule 'detc-unsafe-rng' is listed twice in 'detc: ignore[...]'
w = 4 # detc: ignore[detc-unsafe-rng, detc-unused-ignore, detc-unsafe-rng]
s = "# detc: ignore"  # detc: per-example keyed draw (a note, not an ignore)
# CHECK-NOT: error
# CHECK-NOT: warning(s)

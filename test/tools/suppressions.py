# Inline suppressions (issue 22): `# detc: ignore[rule, ...] -- reason` on
# the line of a finding, or on the line of one of its notes (the
# data-parallel region's start), suppresses it; the reason goes to the JSON
# and SARIF output (SARIF `suppressions`, kind inSource); an ignore that
# suppresses nothing is itself a finding (detc-unused-ignore); others are
# reported, --werror counts only those; one may follow `# noqa` (line 32).
# RUN: not detc analyze %s --werror 2>&1 | FileCheck %s
# RUN: detc analyze %s --format=json | FileCheck %s --check-prefix=JSON
# RUN: detc analyze %s --format=sarif | FileCheck %s --check-prefix=SARIF
import torch
from torch.utils.data import DataLoader, Dataset

noise = torch.Generator().manual_seed(0)
jitter = torch.Generator().manual_seed(1)


class Points(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        # CHECK-NOT: generator 'noise'
        a = torch.randn(2, generator=noise)  # detc: ignore[detc-unsafe-rng] -- jitter need not be reproducible
        # CHECK-NOT: generator 'jitter'
        b = torch.rand(2, generator=jitter)
        return a + b


model = torch.nn.Linear(2, 1)  # detc: ignore[detc-missing-zero-grad]
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = DataLoader(Points(), batch_size=4, num_workers=2)
for x in loader:  # noqa: B007  # detc: ignore[detc-unsafe-rng, detc-step-without-backward]
    model(x).sum().backward()
    # CHECK: suppressions.py:[[@LINE+1]]:5: warning: gradients are not reset between optimizer steps {{.*}}[detc-missing-zero-grad]
    opt.step()
# CHECK: suppressions.py:[[@LINE-7]]:32: warning: 'detc: ignore[detc-missing-zero-grad]' suppresses no finding on this line [detc-unused-ignore]
# CHECK: suppressions.py:[[@LINE-5]]:33: warning: 'detc: ignore[detc-step-without-backward]' suppresses no finding on this line [detc-unused-ignore]
# CHECK: note: 2 finding(s) suppressed (2 by '# detc: ignore', 0 by the baseline)
# CHECK: 3 warning(s)

# JSON: "suppressed": [
# JSON: "fingerprint": "{{[0-9a-f]{16}:0}}"
# JSON: "line": 23,
# JSON: "rule": "detc-unsafe-rng",
# JSON-NEXT: "severity": "warning",
# JSON-NEXT: "suppression": {
# JSON-NEXT:   "column": 46,
# JSON-NEXT:   "file": "{{.*}}suppressions.py",
# JSON-NEXT:   "kind": "inSource",
# JSON-NEXT:   "line": 23,
# JSON-NEXT:   "reason": "jitter need not be reproducible"
# JSON: "line": 25,
# JSON: "suppression": {
# JSON-NEXT:   "column": 33,
# JSON-NEXT:   "file": "{{.*}}suppressions.py",
# JSON-NEXT:   "kind": "inSource",
# JSON-NEXT:   "line": 32,
# JSON-NEXT:   "reason": ""

# SARIF: "partialFingerprints": {
# SARIF-NEXT: "detcFingerprint/v1": "{{[0-9a-f]{16}:[0-9]+}}"
# SARIF: "suppressions": [
# SARIF-NEXT: {
# SARIF-NEXT: "justification": "jitter need not be reproducible",
# SARIF-NEXT: "kind": "inSource",

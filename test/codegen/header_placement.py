#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""The runtime import goes after the shebang, the coding cookie, the
docstring and every `from __future__` import: anything else is a syntax
error or changes the docstring."""
# RUN: detc transform %s --emit-python --seed 42 | FileCheck %s
# CHECK:      {{^}}#!/usr/bin/env python3
# CHECK-NEXT: {{^}}# -*- coding: utf-8 -*-
# CHECK:      {{^}}from __future__ import annotations
# CHECK-NEXT: {{^}}from __future__ import division  # trailing comment stays
# CHECK-NEXT: {{^}}import detc_runtime as _detc_rt  # detc:
# CHECK-NEXT: {{^}}_detc_rt.configure(seed=42, script_sha256="{{[0-9a-f]+}}")  # detc:
# CHECK-NEXT: {{^}}import torch
from __future__ import annotations
from __future__ import division  # trailing comment stays
import torch
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.zeros(4, 2)), batch_size=2, shuffle=True)
for (x,) in loader:
    x = x + torch.randn_like(x)

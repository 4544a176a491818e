# RUN: not detc parse %s 2>&1 | FileCheck %s
config = {"lr": 0.1}
print(f"lr={config["lr"]} {{literal}}")
# CHECK: py312-fstring-quotes.py:[[@LINE-1]]:21: error: invalid syntax: a replacement field holding the f-string's own quote (`f"{x["a"]}"`: PEP 701) is Python 3.12 syntax; detc reads Python 3.11

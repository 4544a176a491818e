# A module on the interpreter's search path (the standard library,
# site-packages) is installed library code, not an unresolved import:
# `xml.etree.ElementTree` (the object-detection tutorial's VOC parser),
# `colorsys`, `email.utils` were "cannot resolve import ... what it
# defines is unknown" though detc reads their source when they are
# called; `zlib` and `array` are built into the interpreter and declared
# in api/python.api. A module that is nowhere still warns.
# RUN: detc analyze %s --python %python 2>&1 | FileCheck %s
# RUN: detc analyze %s --python none 2>&1 | FileCheck %s --check-prefix=NONE
# CHECK-NOT: cannot resolve import 'xml
# CHECK-NOT: cannot resolve import 'colorsys'
# CHECK-NOT: cannot resolve import 'email
# CHECK-NOT: cannot resolve import 'zlib'
# CHECK-NOT: cannot resolve import 'array'
# CHECK: installed_modules.py:[[@LINE+16]]:8: warning: cannot resolve import 'no_such_module_anywhere'
# CHECK-NOT: cannot resolve import
# Without an interpreter, nothing is known to be installed but what the
# tables know: api/python.api's declarations (xml and colorsys are quiet
# there) and the standard library's modules (stdlib.api, derived from
# CPython's own list: `email` is one, declared or not; its calls may draw
# where no line declares them harmless, stdlib_undeclared.py).
# NONE-NOT: cannot resolve import 'xml
# NONE-NOT: cannot resolve import 'email
# NONE: cannot resolve import 'no_such_module_anywhere'
import array
import colorsys
import email.utils
import xml.etree.ElementTree as ET
import zlib

import no_such_module_anywhere

print(ET, colorsys, email.utils, zlib, array, no_such_module_anywhere)

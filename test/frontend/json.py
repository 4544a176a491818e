# RUN: detc parse --emit=json %s | FileCheck %s
# The JSON has the shape of CPython's ast plus byte offsets.
é = f(1)
# CHECK: {"_type":"Module","body":[{"_type":"Assign","targets":[{"_type":"Name","id":"é","ctx":"Store","lineno":3,"col_offset":0,"end_lineno":3,"end_col_offset":2,"offset":109,"end_offset":111}]
# CHECK-SAME: "value":{"_type":"Call","func":{"_type":"Name","id":"f"
# CHECK-SAME: "lineno":3,"col_offset":5,"end_lineno":3,"end_col_offset":9,"offset":114,"end_offset":118}

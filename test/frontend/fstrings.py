# RUN: detc parse %s | FileCheck %s

msg = f"{name!r:>{width}} {value=} {'nested'} {x:.{p}f}" 'tail'
# CHECK: JoinedStr <[[@LINE-1]]:7-[[@LINE-1]]:64>
# CHECK-NEXT: values: FormattedValue {{.*}} conversion='r'
# CHECK-NEXT: value: Name <[[@LINE-3]]:10-[[@LINE-3]]:14> id='name'
# CHECK-NEXT: format_spec: JoinedStr
# CHECK-NEXT: values: Constant {{.*}} value='>'
# CHECK-NEXT: values: FormattedValue
# CHECK-NEXT: value: Name <[[@LINE-7]]:19-[[@LINE-7]]:24> id='width'
# CHECK: Constant {{.*}} value=' value='
# CHECK-NEXT: FormattedValue {{.*}} conversion='r'
# CHECK-NEXT: value: Name <[[@LINE-10]]:28-[[@LINE-10]]:33> id='value'
# CHECK: Constant <[[@LINE-11]]:37-[[@LINE-11]]:45> kind=str value='nested'
# CHECK: Constant {{.*}} value='tail'
doc = f"""line one
  {obj.attr(1,
            2)} {{literal}}"""
# CHECK: Call <[[@LINE-2]]:4-[[@LINE-1]]:15>
# CHECK: Constant {{.*}} value=' {literal}'

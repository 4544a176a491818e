"""Prints each module a transformed script's header installs
(`_detc_rt.overlay.install(NAME, SHA256, TEXT)`): `module NAME`, then
TEXT, for FileCheck."""
import ast
import sys

tree = ast.parse(open(sys.argv[1]).read())
for node in ast.walk(tree):
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "install"):
        print("module", node.args[0].value)
        print(node.args[2].value)

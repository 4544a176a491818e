# lit configuration for detc. Test files are their own inputs: a Python file
# carries its RUN and CHECK lines in comments.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "detc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".py", ".mlir", ".test"]
config.excludes = ["corpus", "e2e", "lit.cfg.py", "lit.site.cfg.py", "Inputs",
                   "hostile_cli.py", "hostile_runtime.py", "every_mode.py",
                   "api_tables_vs_library.py", "platform", "device",
                   "stable_streams.py", "sarif_schema.py",
                   "install"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.detc_obj_root, "test")

# FileCheck, not and count live in LLVM's bin directory, not on PATH.
llvm_config.with_system_environment(["HOME", "TMPDIR"])
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.detc_tools_dir, append_path=True)
config.substitutions.append(("%python", config.python_executable))
# Library source (docs/analysis.md): tests do not depend on what the
# machine's python3 has installed, nor write to the user's cache; a test
# of it names its interpreter (--python %python) and cache folder.
config.environment["DETC_PYTHON"] = "none"
config.environment["DETC_CACHE_DIR"] = ""
# The detc_runtime package of this build, for tests that run emitted scripts.
config.substitutions.append(
    ("%detc_runtime", os.path.join(config.detc_obj_root, "python")))

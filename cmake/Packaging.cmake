# Install rules' packaging: `cpack -G DEB` in the build directory makes
# detc_<version>_amd64.deb with the tools, the detc_runtime package in
# Debian's site directory (plain `python3` imports it) and the docs.
#
# Everything detc installs is the `detc` component; the MLIR library
# helpers also install detc's static libraries (component-less), which the
# package leaves out.

set(CPACK_PACKAGE_NAME detc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "detc")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Compiler toolchain that makes deep-learning training deterministic, replayable and recoverable")
set(CPACK_PACKAGE_DESCRIPTION
    "detc analyses PyTorch training scripts (unsafe random-number use, what a checkpoint must hold, training lints) and rewrites them: per-example keyed random streams, exact resume from checkpoints, checkpoints at the hint a CheckHint schedule chooses.")
set(CPACK_PACKAGE_CONTACT "detc maintainers <detc@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_CMAKE_PROJECTS "${CMAKE_BINARY_DIR};detc;detc;/")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # detc_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The shared libraries the binaries link (LLVM, Z3, the ANTLR runtime,
# libstdc++) become dependencies through dpkg-shlibdeps; the runtime
# package's Python dependencies are declared: the extension module is built
# for Debian 12's Python 3.11.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "python3 (>= 3.11), python3 (<< 3.12), python3-torch, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-torchvision")
include(CPack)

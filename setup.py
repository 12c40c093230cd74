"""The Python package codesim: setuptools drives the CMake build of its extension
codesim._codesim (pybind11, Debian's packages; nothing is downloaded) and installs it with the
package's Python files (sim/python/codesim).

    /usr/bin/python3 -m venv --system-site-packages .venv
    .venv/bin/pip install --no-build-isolation .

With CODESIM_BUILD_DIR=<dir> the extension is built in that existing CMake build tree, reusing
what is built there (tools/test-python.sh uses build/, which tools/build.sh configures with
CODESIM_PYTHON on); otherwise in a fresh Release build of its own.
"""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("CODESIM_BUILD_DIR")
        configure = ["cmake", "-S", ROOT, "-DCODESIM_PYTHON=ON"]
        if build:
            build = os.path.abspath(build)
        else:
            build = os.path.abspath(os.path.join(self.build_temp, "cmake"))
            configure += ["-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_UNITY_BUILD=ON",
                          "-DCODESIM_BENCH=OFF", f"-DPython_EXECUTABLE={sys.executable}"]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"]
        subprocess.run(configure + ["-B", build], check=True)
        subprocess.run(["cmake", "--build", build, "--target", "_codesim", "-j",
                        str(os.cpu_count() or 1)], check=True)
        folder = os.path.join(build, "python", "codesim")
        built = next(f for f in os.listdir(folder) if f.startswith("_codesim"))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(os.path.join(folder, built), target)


setup(
    name="codesim",
    version="0.1.0",
    description="Discrete-event simulator of GPU clusters for large Mixture-of-Experts models",
    packages=["codesim"],
    package_dir={"codesim": "sim/python/codesim"},
    ext_modules=[CMakeExtension("codesim._codesim")],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
    options={"build": {"build_base": "build/setuptools"},
             "egg_info": {"egg_base": "build/setuptools"}},
)

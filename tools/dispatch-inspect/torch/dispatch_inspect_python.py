"""dispatch-inspect's helper for `--runtime python`: answers requests (wire.h's JSON) from the
dispatcher of this Python process, after `import torch` and the modules named with --import, so
that what PyTorch (and each module) registers from Python is there: Meta kernels, prims,
decompositions, torch.library registrations, every custom_op.

It loads libtorch's adapter (LIBRARY, the torch helper built as a shared library) into this
process with ctypes; the adapter then reads the same c10 dispatcher that torch._C uses. LIBRARY
must have been built against the libtorch this Python's torch loaded: LIBRARY.json (written
beside it when it was built) names that PyTorch's version and the folder of its libtorch, and
anything else is refused before LIBRARY is loaded (a second libtorch in one process would be a
second dispatcher, and wrong answers). As dispatch-inspect-torch does, it reads requests one JSON
line each from file descriptor 4 and answers each as wire.h's stream on file descriptor 3, errors
on stderr as dispatch-inspect prints them, until its requests end.

usage: python dispatch_inspect_python.py --library LIBRARY [--import MODULE]...
                                         [--other-pytorch-exit N]
exit: 0; 1 a module failed to import; 2 torch cannot be imported, LIBRARY does not match it, or a
request was no request; N, saying nothing, when LIBRARY was built against another PyTorch and
--other-pytorch-exit N is given (dispatch-inspect then builds one against this Python's and asks
again).
"""
import ctypes
import importlib
import json
import os
import platform
import re
import sys
import traceback

ERROR = "dispatch-inspect: error: "


def fail(status, message, note=None):
    sys.stderr.write(ERROR + message + "\n")
    if note:
        sys.stderr.write("note: " + note + "\n")
    sys.stderr.flush()
    os._exit(status)


def release(version):
    """(major, minor, patch) of a version such as '2.14.1+debian' or '1.13.0a0'."""
    numbers = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", version)
    return tuple(int(n or 0) for n in numbers.groups()) if numbers else None


def mapped_libtorch_folders():
    """The folders of the libtorch_cpu this process has mapped (real paths)."""
    folders = set()
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                path = line.split(None, 5)[-1].strip() if line.count(" ") >= 5 else ""
                if os.path.basename(path).startswith("libtorch_cpu."):
                    folders.add(os.path.dirname(os.path.realpath(path)))
    except OSError:
        pass
    return folders


def check_library(library, torch, other_exit):
    """Refuses LIBRARY unless it was built against the libtorch this process loaded (exit
    `other_exit` without a word when it is set)."""
    ours = torch.__version__
    try:
        with open(library + ".json", encoding="utf-8") as f:
            built = json.load(f)
        built_version, built_folder = built["torch_version"], built["libtorch_folder"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(2, f"cannot read what the torch helper '{library}' was built against "
                f"('{library}.json': {e})")
    python = sys.executable
    folders = mapped_libtorch_folders()
    other = release(built_version) != release(ours) or os.path.realpath(built_folder) not in folders
    if other and other_exit is not None:
        sys.stderr.flush()
        os._exit(other_exit)
    if release(built_version) != release(ours):
        fail(2, f"the torch helper was built against PyTorch {built_version}, but {python} has "
                f"PyTorch {ours}: its dispatcher cannot be read with it",
             f"--torch-lib {torch.utils.cmake_prefix_path} builds one against this PyTorch, or use "
             f"a Python with PyTorch {built_version}")
    if os.path.realpath(built_folder) not in folders:
        loaded = ", ".join(sorted(folders)) or "none"
        fail(2, f"the torch helper was built against the libtorch in {built_folder}, but {python} "
                f"loaded PyTorch {ours} from {loaded}: a second libtorch in one process would be "
                "a second dispatcher",
             f"--torch-lib {torch.utils.cmake_prefix_path} builds one against this PyTorch")


def main(argv):
    library, modules, other_exit = None, [], None
    usage = (f"{os.path.basename(__file__)}: usage: --library LIBRARY [--import MODULE]... "
             "[--other-pytorch-exit N] (dispatch-inspect --runtime python runs it)")
    for i in range(0, len(argv), 2):
        if argv[i] not in ("--library", "--import", "--other-pytorch-exit") or i + 1 == len(argv):
            fail(2, usage)
        if argv[i] == "--library":
            library = argv[i + 1]
        elif argv[i] == "--import":
            modules.append(argv[i + 1])
        else:
            other_exit = int(argv[i + 1]) if argv[i + 1].isdigit() else fail(2, usage)
    if library is None:
        fail(2, usage)
    try:
        import torch
    except Exception as e:  # noqa: BLE001: whatever stops torch from importing is the answer
        fail(2, f"--runtime python: {sys.executable} cannot import torch: "
                f"{type(e).__name__}: {e}")
    for module in modules:
        try:
            importlib.import_module(module)
        except BaseException as e:  # noqa: BLE001: a module may even call sys.exit
            where = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
            site = f" ({where[0].filename}:{where[0].lineno})" if where else ""
            fail(1, f"--import {module}: {type(e).__name__}: {e}{site}")
    check_library(library, torch, other_exit)
    adapter = ctypes.CDLL(library, mode=os.RTLD_NOW | os.RTLD_GLOBAL)
    serve = adapter.schemac_inspect_torch_serve
    serve.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
    serve.restype = ctypes.c_int
    host = {"python": sys.executable, "python_version": platform.python_version(),
            "torch_version": torch.__version__, "imports": modules}
    sys.stdout.flush()
    sys.stderr.flush()
    status = serve(json.dumps(host).encode(), 4, 3)
    sys.stdout.flush()
    sys.stderr.flush()
    # No interpreter teardown: the answer is complete, and torch's exit handlers only cost time.
    os._exit(status)


if __name__ == "__main__":
    main(sys.argv[1:])

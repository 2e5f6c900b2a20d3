# Registration forms seen in extension projects, written for these tests:
# Library objects and define (bitsandbytes _ops.py, executorch custom_ops_lib.py),
# torch.library.define with name and schema (bitsandbytes), custom_op with schema=
# (torch.library docs), triple-quoted and '+'-joined strings, f-strings (executorch vulkan).
import torch
from torch.library import Library, custom_op

lib = torch.library.Library("pyops", "DEF")
lib.define("gelu(Tensor x, str approximate='none') -> Tensor")
lib.define(
    "fused(Tensor a, "  # implicit concatenation, comment between
    "Tensor b) -> Tensor"
)
lib.define("""
    triple(Tensor x,
           int[] dims) -> Tensor
""")
lib.define("plus(Tensor x, " + "Tensor y) -> Tensor")
lib.define(r"raw_str(Tensor x) -> Tensor")
name = "dynamic"
lib.define(f"{name}(Tensor x) -> Tensor")
lib.define(f"static_f(Tensor x) -> Tensor")
torch.library.define("pyops::split", "(Tensor x, int n) -> Tensor[]")
Library("other", "FRAGMENT").define("other::direct(Tensor x) -> Tensor")
lib.define("wrongns::bad(Tensor x) -> Tensor")


@custom_op("pyops::custom", mutates_args=(), schema="(Tensor x, Tensor x) -> Tensor")
def custom(x, y):
    return x


@torch.library.custom_op("pyops::hinted", mutates_args=())
def hinted(x: torch.Tensor) -> torch.Tensor:
    return x


@torch.library.register_fake("pyops::hinted")
def _(x):
    return x


lib.impl("gelu", lambda x, approximate: x, "CPU")
lib.impl("nowhere", lambda x: x, "CPU")

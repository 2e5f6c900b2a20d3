# Helper registrations, aliases and built names (written for the fuzz seeds).
import torch
from torch.library import Library, custom_op as co
from proj.utils import direct_register_custom_op
NS = "fz"
if torch.__version__ >= "2.4":
    _op = torch.library.custom_op
else:
    _op = None
lib = Library(NS, "FRAGMENT")
def f(x: torch.Tensor, out: torch.Tensor, n: int = 2) -> None: ...
direct_register_custom_op("f", f, ["out"], target_lib=lib, dispatch_key="CUDA")
direct_register_custom_op(op_name=NS + "::g", op_func=f)
reg(f"{NS}_h", f, mutates_args=None)
@_op(f"{NS}::k", mutates_args=("out",))
def k(x: torch.Tensor, out: torch.Tensor) -> torch.Tensor: ...
@deco("m", mutates_args=())
def m(x: torch.Tensor) -> list[torch.Tensor]: ...
defn(f"{NS}::p", "(Tensor x) -> Tensor")
co(f"{{{NS}}}::q", mutates_args=())(f)
def direct_register_custom_op(op_name, op_func, mutates_args=None, target_lib=None):
    (target_lib or lib).define(op_name + "")

# Operators registered through the project's helpers, an alias of custom_op under a version check,
# and names built from a module constant.
from typing import Optional

import torch
from torch.library import Library

from proj.utils.torch_utils import direct_register_custom_op
from proj.utils.decorators import custom_op_with_fake

LIBRARY_NAME = "projconv"
if torch.__version__ >= "2.4":
    _custom_op = torch.library.custom_op
else:
    _custom_op = None
side_lib = Library("side", "FRAGMENT")


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    return x


def rms_norm_fake(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    return torch.empty_like(x)


direct_register_custom_op(
    op_name="rms_norm",
    op_func=rms_norm,
    fake_impl=rms_norm_fake,
)


def fused_add(out: torch.Tensor, residual: Optional[torch.Tensor], scale: int) -> None:
    pass


direct_register_custom_op("fused_add", fused_add, ["out"], target_lib=side_lib,
                          dispatch_key="CUDAA")


@_custom_op(f"{LIBRARY_NAME}::conv_fwd", mutates_args={"out"})
def conv_fwd(x: torch.Tensor, out: torch.Tensor, activation: str = "silu") -> None:
    pass


@custom_op_with_fake("gate", mutates_args=())
def gate(x: torch.Tensor, sizes: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    return x, x


def registered_in_a_loop(names):
    for name in names:
        direct_register_custom_op(name, rms_norm)

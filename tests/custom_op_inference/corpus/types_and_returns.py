# Parameter and return types in the typing and builtin forms (written for the agreement test):
# Optional and `| None`, List/Sequence/list, Optional lists, lists of Optionals, numbers, and
# each return form.
from typing import List, Optional, Sequence, Tuple, Union

import torch
from torch import Tensor


@torch.library.custom_op("corpus_ty::forms", mutates_args=())
def forms(a: Optional[Tensor], b: Tensor | None, c: List[Tensor], d: list[int], e: Sequence[float],
          g: Optional[List[int]], h: list[Optional[Tensor]], i: None | list[bool],
          j: Union[Tensor, None], k: "torch.Tensor", n: Union[int, float]) -> None:
    pass


@torch.library.custom_op("corpus_ty::pair", mutates_args=())
def pair(x: Tensor, y: Tensor) -> Tuple[Tensor, Tensor]:
    return x.clone(), y.clone()


@torch.library.custom_op("corpus_ty::pieces", mutates_args=())
def pieces(x: Tensor, sizes: list[int]) -> list[Tensor]:
    return [x.clone()]


@torch.library.custom_op("corpus_ty::count", mutates_args=())
def count(x: Tensor) -> int:
    return 0


@torch.library.custom_op("corpus_ty::norm", mutates_args=())
def norm(x: Tensor) -> float:
    return 0.0


@torch.library.custom_op("corpus_ty::any_nonzero", mutates_args=())
def any_nonzero(x: Tensor) -> bool:
    return False


@torch.library.custom_op("corpus_ty::mixed", mutates_args=())
def mixed(x: Tensor, *, alpha: float = 1.0, beta: int = 0, flags: Optional[list[bool]] = None) -> tuple[Tensor, int]:
    return x.clone(), 0


# Refused: tuples as inputs, a parameter without a hint, *args.
@torch.library.custom_op("corpus_ty::bad_tuple_input", mutates_args=())
def bad_tuple_input(x: Tensor, shape: tuple[int, int]) -> Tensor:
    return x


@torch.library.custom_op("corpus_ty::bad_no_hint", mutates_args=())
def bad_no_hint(x: Tensor, y) -> Tensor:
    return x


@torch.library.custom_op("corpus_ty::bad_varargs", mutates_args=())
def bad_varargs(x: Tensor, *rest: Tensor) -> Tensor:
    return x


@torch.library.custom_op("corpus_ty::bad_keyword_tensor", mutates_args=())
def bad_keyword_tensor(x: Tensor, *, bias: Tensor) -> Tensor:
    return x

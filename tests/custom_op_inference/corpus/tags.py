# Tagged custom ops (written for the agreement test): from PyTorch 2.13 torch.Tag.inplace gives
# the first argument's alias as the return and torch.Tag.out the keyword-only out arguments';
# other tags leave the schema alone.
import torch
from torch import Tag, Tensor

OUT_TAGS = (torch.Tag.out,)


@torch.library.custom_op("corpus_tag::scale_", mutates_args=("x",), tags=torch.Tag.inplace)
def scale_(x: Tensor, factor: float) -> Tensor:
    x.mul_(factor)
    return x


@torch.library.custom_op("corpus_tag::clamp_", mutates_args=["self"], tags=[Tag.inplace])
def clamp_(self: Tensor, lo: float = 0.0, hi: float = 1.0) -> Tensor:
    return self.clamp_(lo, hi)


@torch.library.custom_op("corpus_tag::add_out", mutates_args=("out",), tags=OUT_TAGS)
def add_out(x: Tensor, y: Tensor, *, out: Tensor) -> Tensor:
    torch.add(x, y, out=out)
    return out


@torch.library.custom_op("corpus_tag::minmax_out", mutates_args=("lo", "hi"), tags=Tag.out)
def minmax_out(x: Tensor, *, lo: Tensor, hi: Tensor) -> tuple[Tensor, Tensor]:
    return lo, hi


@torch.library.custom_op("corpus_tag::compliant", mutates_args=(),
                         tags=(torch.Tag.pt2_compliant_tag, torch.Tag.needs_fixed_stride_order))
def compliant(x: Tensor) -> Tensor:
    return x.clone()


@torch.library.custom_op("corpus_tag::untagged_inplace", mutates_args=("x",), tags=None)
def untagged_inplace(x: Tensor) -> None:
    pass


# Refused: the shapes the tags require.
@torch.library.custom_op("corpus_tag::bad_inplace_no_mutation", mutates_args=(), tags=torch.Tag.inplace)
def bad_inplace_no_mutation(x: Tensor) -> Tensor:
    return x


@torch.library.custom_op("corpus_tag::bad_inplace_return", mutates_args=("x",), tags=torch.Tag.inplace)
def bad_inplace_return(x: Tensor) -> None:
    pass


@torch.library.custom_op("corpus_tag::bad_out_positional", mutates_args=("out",), tags=torch.Tag.out)
def bad_out_positional(x: Tensor, out: Tensor) -> Tensor:
    return out


@torch.library.custom_op("corpus_tag::bad_out_return", mutates_args=("out",), tags=torch.Tag.out)
def bad_out_return(x: Tensor, *, out: Tensor) -> None:
    pass


@torch.library.custom_op("corpus_tag::bad_both", mutates_args=("x",), tags=(Tag.inplace, Tag.out))
def bad_both(x: Tensor) -> Tensor:
    return x

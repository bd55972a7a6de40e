"""Errors raise PyTorch's exception types with PyTorch's messages.

Each case holds PyTorch 1.13's type and message (checked against torch itself when it is
installed: test_torch_raises_the_same). Where Backplane words a message its own way on purpose
(docs/pytorch_parity.md: dtypes are spelled float32, not Float), the case says so and only the
type is compared with torch."""

import pytest

import backplane as bp

CASES = [
    ("broadcast", lambda m: m.add(m.ones(3), m.ones(4)), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0"),
    ("dim range", lambda m: m.sum(m.ones(2), 1), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    ("argument type", lambda m: m.neg("a"), TypeError,
     "neg(): argument 'input' (position 1) must be Tensor, not str"),
    ("argument type, two overloads", lambda m: m.add(m.ones(2), "x"), TypeError,
     "add(): argument 'other' (position 2) must be Tensor, not str"),
    ("view size", lambda m: m.ones(6).view(4), RuntimeError,
     "shape '[4]' is invalid for input of size 6"),
    ("in-place cast", lambda m: m.ones(2, dtype=m.int32).add_(1.5), RuntimeError,
     "result type float32 can't be cast to the desired output type int32"),
    ("integer division by zero", lambda m: m.remainder(m.ones(2, dtype=m.int64), 0),
     RuntimeError, "ZeroDivisionError"),
    ("transpose dim", lambda m: m.ones(2).transpose(0, 2), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 2)"),
]


@pytest.mark.parametrize("name,call,error,message", CASES, ids=[c[0] for c in CASES])
def test_backplane_raises_pytorchs_type_and_message(name, call, error, message):
    with pytest.raises(Exception) as info:
        call(bp)
    assert info.type is error
    assert str(info.value) == message


# Cases whose message is Backplane's own wording (docs/pytorch_parity.md, "error wording").
REWORDED = {"in-place cast": "result type Float can't be cast to the desired output type Int"}


@pytest.mark.parametrize("name,call,error,message", CASES, ids=[c[0] for c in CASES])
def test_torch_raises_the_same(torch, name, call, error, message):
    with pytest.raises(Exception) as info:
        call(torch)
    assert info.type is error
    assert str(info.value) == REWORDED.get(name, message)


def test_arguments_that_fit_no_overload_list_the_signatures():
    with pytest.raises(TypeError) as info:
        bp.add(bp.ones(2), bp.ones(2), bp.ones(2), bp.ones(2))
    text = str(info.value)
    assert text.startswith("add() received an invalid combination of arguments - got "
                           "(Tensor, Tensor, Tensor, Tensor), but expected one of:")
    assert " * (Tensor input, Tensor other, *, Number alpha)" in text


def test_unknown_keywords_and_missing_arguments_are_type_errors():
    with pytest.raises(TypeError, match="neg\\(\\) got an unexpected keyword argument 'bogus'"):
        bp.neg(bp.ones(1), bogus=1)
    with pytest.raises(TypeError, match="missing required argument 'input'"):
        bp.neg()
    with pytest.raises(TypeError, match="relu_\\(\\) got an unexpected keyword argument 'out'"):
        bp.relu_(bp.ones(1), out=bp.ones(1))

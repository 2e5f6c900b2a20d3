// Stack: the boxed calling convention. A boxed call finds its arguments at the top of the stack
// (the last argument on top) and replaces them with its returns (the last return on top).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "schemac/core/ivalue.h"

namespace schemac::core {

using Stack = std::vector<IValue>;

// Pushes each value in order.
template <class... Values>
void push(Stack& stack, Values&&... values) {
  (stack.emplace_back(std::forward<Values>(values)), ...);
}

// The value `depth` places below the top (0 = top). Throws IValueError on a short stack.
IValue& peek(Stack& stack, size_t depth);
const IValue& peek(const Stack& stack, size_t depth);

// Removes and returns the top value. Throws IValueError on an empty stack.
IValue pop(Stack& stack);

// Removes the top `n` values. Throws IValueError when the stack holds fewer.
void drop(Stack& stack, size_t n);

// Throws IValueError unless the stack holds at least `n` values; `what` names the call.
void require_stack_size(const Stack& stack, size_t n, std::string_view what);

}  // namespace schemac::core

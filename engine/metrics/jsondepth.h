#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace kp {

// The deepest nesting of arrays and objects a JSON input may have. A parser that recurses would
// overflow its stack on a file of a few hundred kilobytes of "[": inputs are checked first, in one
// pass that keeps no stack.
inline constexpr int kMaxJsonDepth = 512;

// The byte offset of the first "[" or "{" deeper than maxDepth, outside strings and comments (// and
// /* */, which profiles may hold); none when the text keeps within it.
std::optional<std::size_t> jsonTooDeepAt(std::string_view text, int maxDepth = kMaxJsonDepth);

} // namespace kp

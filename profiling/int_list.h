#pragma once
// The one grammar for lists of batch sizes and sequence lengths, used by the GUI's fields, the
// command line (--batch, --seq-len) and config files ("batch": "1..256" as well as [1, 4, 16]):
//
//   items separated by commas, semicolons or white space; an item is
//     N       one value
//     A-B     every value from A to B            "3-5"   -> 3, 4, 5
//     A..B    powers of two from A up to B, and  "1..20" -> 1, 2, 4, 8, 16, 20
//             B itself: the end you type is swept "1..256"-> 1, 2, 4, ..., 256
//   every value is a whole number from 1 to the field's maximum; a value given twice (also by
//   overlapping ranges) is refused; at most kMaxListValues values.
//
// Parsing names the first bad item, so a field or flag can show it.
#include <string>
#include <string_view>
#include <vector>

namespace rnnprof {

inline constexpr int kMaxListValues = 4096;

struct IntListParse {
    std::vector<int> values;
    std::string error; // empty when the text parsed
    [[nodiscard]] bool ok() const { return error.empty(); }
};

// `max` is the largest value allowed (e.g. Limits::maxBatch).
[[nodiscard]] IntListParse parseIntList(std::string_view text, int max);
// "1, 4, 16": parses back to the same values.
[[nodiscard]] std::string formatIntList(const std::vector<int>& values);
// from, 2*from, 4*from, ... up to `to` (inclusive); empty when from < 1 or to < from.
[[nodiscard]] std::vector<int> powersOfTwo(int from, int to);
// from, from+step, ... up to `to`; empty when step < 1 or to < from.
[[nodiscard]] std::vector<int> linearRange(int from, int to, int step);

} // namespace rnnprof

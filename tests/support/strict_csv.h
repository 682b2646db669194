#pragma once
// A strict RFC 4180 reader for checking what toCsv() writes (the result CSV test and the csv fuzz
// target): quoted fields may hold commas, doubled quotes and line breaks; a quote inside an
// unquoted field, a carriage return outside quotes, an unterminated quoted field or a last line
// without its line break is a writer error, returned as `problem`.
#include <string>
#include <vector>

namespace rnnprof::test {

using CsvRow = std::vector<std::string>;

struct StrictCsv {
    std::vector<CsvRow> rows;
    std::string problem; // empty when the text is well-formed
};

inline StrictCsv readStrictCsv(const std::string& text) {
    StrictCsv out;
    CsvRow row;
    std::string field;
    bool quoted = false;
    auto fail = [&](const char* what) {
        out.problem = what;
        return out;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            if (!field.empty()) return fail("a quote inside an unquoted CSV field");
            quoted = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
        } else if (c == '\n') {
            row.push_back(std::move(field));
            field.clear();
            out.rows.push_back(std::move(row));
            row.clear();
        } else if (c == '\r') {
            return fail("a carriage return outside quotes");
        } else {
            field += c;
        }
    }
    if (quoted) return fail("an unterminated quoted CSV field");
    if (!row.empty() || !field.empty()) return fail("the CSV text does not end with a line break");
    return out;
}

} // namespace rnnprof::test

#include "engine/npy.h"

#include "engine/error.h"

#include "engine/atomic_file.h"
#include "engine/file_read.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <sstream>

namespace rnnprof {
namespace {

constexpr std::int64_t kMaxElements = std::int64_t(1) << 31;

[[noreturn]] void fail(const std::string& source, const std::string& what) {
    throw Error(ErrorKind::InvalidInput, source + ": " + what);
}

std::string_view trimView(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

// The value text after 'key': in the header dictionary, up to the next top-level comma or brace.
std::string_view dictValue(std::string_view header, std::string_view key, const std::string& source) {
    // Built with append: gcc 12 warns falsely (-Wrestrict) on "'" + std::string.
    std::string quoted1(1, '\'');
    quoted1.append(key).push_back('\'');
    std::string quoted2(1, '"');
    quoted2.append(key).push_back('"');
    std::size_t pos = header.find(quoted1);
    std::size_t len = quoted1.size();
    if (pos == std::string_view::npos) {
        pos = header.find(quoted2);
        len = quoted2.size();
    }
    if (pos == std::string_view::npos) fail(source, "header has no '" + std::string(key) + "' entry");
    std::size_t colon = header.find(':', pos + len);
    if (colon == std::string_view::npos) fail(source, "header entry '" + std::string(key) + "' has no value");
    std::size_t start = colon + 1, depth = 0, end = start;
    for (; end < header.size(); ++end) {
        const char ch = header[end];
        if (ch == '(')
            ++depth;
        else if (ch == ')') {
            if (depth == 0) break;
            --depth;
        } else if ((ch == ',' || ch == '}') && depth == 0)
            break;
    }
    return trimView(header.substr(start, end - start));
}

std::vector<std::int64_t> parseShape(std::string_view text, const std::string& source) {
    if (text.size() < 2 || text.front() != '(' || text.back() != ')')
        fail(source, "shape must be a tuple such as (4, 2, 3), found " + std::string(text));
    text = text.substr(1, text.size() - 2);
    std::vector<std::int64_t> shape;
    while (true) {
        text = trimView(text);
        if (text.empty()) break;
        std::size_t i = 0;
        std::int64_t v = 0;
        if (!(text[0] >= '0' && text[0] <= '9'))
            fail(source, "shape holds a non-integer: " + std::string(text));
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10)
                fail(source, "shape dimension is too large");
            v = v * 10 + (text[i] - '0');
            ++i;
        }
        while (i < text.size() && (text[i] == 'L'))
            ++i; // Python 2 long suffix
        shape.push_back(v);
        if (shape.size() > 32) fail(source, "shape has more than 32 dimensions");
        text = trimView(text.substr(i));
        if (text.empty()) break;
        if (text[0] != ',') fail(source, "shape is malformed near '" + std::string(text) + "'");
        text.remove_prefix(1);
    }
    return shape;
}

template <class T>
std::string encode(const Tensor<T>& t, const char* descr) {
    std::ostringstream shape;
    shape << "(";
    for (std::size_t i = 0; i < t.shape.size(); ++i)
        shape << t.shape[i] << (t.shape.size() == 1 || i + 1 < t.shape.size() ? ", " : "");
    shape << ")";
    std::string header =
        std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape.str() + ", }";
    // Pad so that the data starts at a multiple of 64 bytes, ending the header with '\n'.
    const std::size_t preamble = 10;
    std::size_t total = preamble + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header.push_back('\n');
    std::string out("\x93NUMPY\x01\x00", 8);
    out.push_back(char(header.size() & 0xff));
    out.push_back(char((header.size() >> 8) & 0xff));
    out += header;
    out.append(reinterpret_cast<const char*>(t.data.data()), t.data.size() * sizeof(T));
    return out;
}

} // namespace

namespace {

// The preamble's length: 10 bytes (format 1) or 12 (formats 2 and 3).
constexpr std::size_t kMaxPreamble = 12;

struct Preamble {
    std::size_t offset = 0;    // where the header starts
    std::size_t headerLen = 0; // its length, as the preamble says
};

// Magic, version and header length from the first bytes of a file.
Preamble parsePreamble(std::string_view bytes, const std::string& source) {
    static const char magic[] = "\x93NUMPY";
    if (bytes.size() < 10 || std::memcmp(bytes.data(), magic, 6) != 0)
        fail(source, "not a .npy file: expected the magic string \\x93NUMPY at the start");
    const int major = static_cast<unsigned char>(bytes[6]);
    Preamble p;
    if (major == 1) {
        p.headerLen = std::size_t(static_cast<unsigned char>(bytes[8])) |
                      (std::size_t(static_cast<unsigned char>(bytes[9])) << 8);
        p.offset = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) fail(source, "truncated: the header length is missing");
        for (int i = 0; i < 4; ++i)
            p.headerLen |= std::size_t(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
        p.offset = 12;
    } else {
        fail(source, "unsupported .npy format version " + std::to_string(major) + " (expected 1, 2 or 3)");
    }
    return p;
}

// Where the data of an .npy file starts and what it holds, from its preamble and header.
struct NpyLayout {
    NpyDtype dtype = NpyDtype::Float64;
    std::vector<std::int64_t> shape;
    std::size_t dataOffset = 0; // preamble + header
    std::size_t elementSize = 8;
    std::int64_t count = 0;
    [[nodiscard]] std::uint64_t dataBytes() const { return std::uint64_t(count) * elementSize; }
};

// `bytes` is the start of the file: at least its preamble and header (the whole file will do).
NpyLayout parseLayout(std::string_view bytes, const std::string& source) {
    const Preamble pre = parsePreamble(bytes, source);
    if (pre.headerLen > bytes.size() - pre.offset)
        fail(source, "truncated: header of " + std::to_string(pre.headerLen) + " bytes, file has " +
                         std::to_string(bytes.size() - pre.offset) + " after the preamble");
    const std::string_view header = bytes.substr(pre.offset, pre.headerLen);

    NpyLayout layout;
    std::string_view descr = dictValue(header, "descr", source);
    if (descr.size() >= 2 && (descr.front() == '\'' || descr.front() == '"'))
        descr = descr.substr(1, descr.size() - 2);
    if (descr == "<f4")
        layout.dtype = NpyDtype::Float32;
    else if (descr == "<f8")
        layout.dtype = NpyDtype::Float64;
    else
        fail(source, "unsupported dtype '" + std::string(descr) +
                         "': expected little-endian float32 ('<f4') or float64 ('<f8')");
    const std::string_view fortran = dictValue(header, "fortran_order", source);
    if (fortran == "True")
        fail(source, "Fortran-order arrays are not supported: expected C order (fortran_order False)");
    if (fortran != "False")
        fail(source, "fortran_order must be True or False, found " + std::string(fortran));
    layout.shape = parseShape(dictValue(header, "shape", source), source);

    std::int64_t count = 1;
    for (std::int64_t d : layout.shape) {
        if (d != 0 && count > kMaxElements / d) fail(source, "array is too large (more than 2^31 elements)");
        count *= d;
    }
    layout.count = count;
    layout.elementSize = layout.dtype == NpyDtype::Float32 ? 4 : 8;
    layout.dataOffset = pre.offset + pre.headerLen;
    return layout;
}

// The file must hold exactly the data its header describes: checked before any data is read.
void checkDataSize(const NpyLayout& layout, std::uint64_t available, const std::string& source) {
    const std::uint64_t dataBytes = layout.dataBytes();
    if (available < dataBytes)
        fail(source, "truncated: shape " + shapeToString(layout.shape) + " needs " +
                         std::to_string(dataBytes) + " data bytes, found " + std::to_string(available));
    if (available > dataBytes)
        fail(source, "has " + std::to_string(available - dataBytes) + " bytes after the data of shape " +
                         shapeToString(layout.shape));
}

// Appends `n` little-endian elements at `data` to `values`, as double.
void appendValues(const NpyLayout& layout, const char* data, std::size_t n, std::vector<double>& values) {
    for (std::size_t i = 0; i < n; ++i) {
        if (layout.dtype == NpyDtype::Float32) {
            float f;
            std::memcpy(&f, data + i * 4, 4);
            values.push_back(f);
        } else {
            double v;
            std::memcpy(&v, data + i * 8, 8);
            values.push_back(v);
        }
    }
}

} // namespace

NpyArray parseNpy(std::string_view bytes, const std::string& source) {
    const NpyLayout layout = parseLayout(bytes, source);
    checkDataSize(layout, bytes.size() - layout.dataOffset, source);
    NpyArray arr;
    arr.dtype = layout.dtype;
    arr.shape = layout.shape;
    arr.values.reserve(std::size_t(layout.count));
    appendValues(layout, bytes.data() + layout.dataOffset, std::size_t(layout.count), arr.values);
    return arr;
}

namespace {

// Reads the preamble and header of an open file and checks the file's size against them, so that
// a file which is not what its header says is refused before any data is read. Leaves `file` at
// the start of the data.
NpyLayout readLayout(RegularFile& file, const std::string& path) {
    std::string head(std::size_t(std::min<std::uint64_t>(file.size(), kMaxPreamble)), '\0');
    file.readExactly(head.data(), head.size());
    const Preamble pre = parsePreamble(head, path);
    const std::uint64_t headerEnd = std::uint64_t(pre.offset) + pre.headerLen;
    if (headerEnd > file.size())
        fail(path, "truncated: header of " + std::to_string(pre.headerLen) + " bytes, file has " +
                       std::to_string(file.size() - pre.offset) + " after the preamble");
    // Format 1 read two bytes ahead; a header that short cannot be valid and fails in parseLayout.
    const std::size_t had = head.size();
    head.resize(std::max<std::size_t>(std::size_t(headerEnd), had));
    file.readExactly(head.data() + had, head.size() - had);
    const NpyLayout layout = parseLayout(std::string_view(head).substr(0, std::size_t(headerEnd)), path);
    if (headerEnd < had) fail(path, "header of " + std::to_string(pre.headerLen) + " bytes is too short");
    checkDataSize(layout, file.size() - layout.dataOffset, path);
    return layout;
}

} // namespace

NpyInfo readNpyInfo(const std::string& path) {
    RegularFile file(path, kMaxNpyFileBytes);
    const NpyLayout layout = readLayout(file, path);
    return {layout.dtype, layout.shape};
}

void requireNpyShape(const std::string& path, const std::vector<std::int64_t>& found,
                     const std::vector<std::int64_t>& expected) {
    bool ok = found.size() == expected.size();
    for (std::size_t i = 0; ok && i < expected.size(); ++i)
        ok = expected[i] < 0 || expected[i] == found[i];
    if (ok) return;
    std::string want = "[";
    for (std::size_t i = 0; i < expected.size(); ++i)
        want += (i ? ", " : "") + (expected[i] < 0 ? std::string("*") : std::to_string(expected[i]));
    want += "]";
    throw Error(ErrorKind::InvalidInput,
                path + ": expected shape " + want + ", found " + shapeToString(found));
}

// Converts the data in chunks, never holding a copy of the file.
NpyArray readNpy(const std::string& path) {
    RegularFile file(path, kMaxNpyFileBytes);
    const NpyLayout layout = readLayout(file, path);

    NpyArray arr;
    arr.dtype = layout.dtype;
    arr.shape = layout.shape;
    arr.values.reserve(std::size_t(layout.count));
    constexpr std::int64_t kChunkElements = std::int64_t(1) << 17;
    std::string chunk(std::size_t(kChunkElements) * layout.elementSize, '\0');
    for (std::int64_t done = 0; done < layout.count;) {
        const auto n = std::size_t(std::min(layout.count - done, kChunkElements));
        file.readExactly(chunk.data(), n * layout.elementSize);
        appendValues(layout, chunk.data(), n, arr.values);
        done += std::int64_t(n);
    }
    return arr;
}

template <class T>
Tensor<T> readNpyTensor(const std::string& path, const std::vector<std::int64_t>& expected) {
    NpyArray arr = readNpy(path);
    requireNpyShape(path, arr.shape, expected);
    Tensor<T> t;
    t.shape = arr.shape;
    t.data.assign(arr.values.begin(), arr.values.end());
    return t;
}

std::string npyBytes(const Tensor<float>& t) {
    return encode(t, "<f4");
}
std::string npyBytes(const Tensor<double>& t) {
    return encode(t, "<f8");
}
void writeNpy(const std::string& path, const Tensor<float>& t) {
    writeFileAtomically(path, npyBytes(t));
}
void writeNpy(const std::string& path, const Tensor<double>& t) {
    writeFileAtomically(path, npyBytes(t));
}

template Tensor<float> readNpyTensor<float>(const std::string&, const std::vector<std::int64_t>&);
template Tensor<double> readNpyTensor<double>(const std::string&, const std::vector<std::int64_t>&);

} // namespace rnnprof

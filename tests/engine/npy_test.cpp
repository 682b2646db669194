// .npy reading and writing: round trips of float32/float64 arrays of 0-4 dimensions (empty ones
// too), files laid out as NumPy writes them (versions 1-3), and an error naming the file, what
// was expected and what was found for every malformed file.
#include "engine/error.h"
#include "engine/npy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;
using Dims = std::vector<std::int64_t>;
namespace fs = std::filesystem;

// A fresh folder under the system temporary directory, removed with everything in it.
class TempDir {
public:
    TempDir() {
        static int counter = 0;
        m_path = fs::temp_directory_path() /
                 ("rnnprof-npy-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        fs::create_directories(m_path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    [[nodiscard]] std::string file(const std::string& name) const { return (m_path / name).string(); }

private:
    fs::path m_path;
};

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

// A .npy file laid out like NumPy's: magic, version, header length, the dictionary padded with
// spaces and ended by '\n' so that the data starts at a multiple of 64, then the data.
std::string npyFile(const std::string& dict, const std::string& data, int major = 1) {
    const std::size_t preamble = major == 1 ? 10 : 12;
    std::string header = dict;
    header.append((64 - (preamble + header.size() + 1) % 64) % 64, ' ');
    header.push_back('\n');
    std::string out("\x93NUMPY", 6);
    out.push_back(char(major));
    out.push_back('\0');
    const std::size_t n = header.size();
    for (std::size_t i = 0; i < preamble - 8; ++i)
        out.push_back(char((n >> (8 * i)) & 0xff));
    return out + header + data;
}

template <class T>
std::string rawBytes(const std::vector<T>& values) {
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

template <class T>
Tensor<T> sequenceTensor(Dims shape) {
    Tensor<T> t(std::move(shape));
    for (std::size_t i = 0; i < t.data.size(); ++i)
        t.data[i] = T(0.1) * T(i) - T(1.7) + (i % 3 == 0 ? T(1e-30) : T(0));
    return t;
}

// The message of the Error(InvalidInput) that parsing `bytes` raises; fails when none is raised.
std::string parseError(const std::string& bytes, const std::string& source = "bad.npy") {
    try {
        (void)parseNpy(bytes, source);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        return e.what();
    }
    ADD_FAILURE() << "no error for a malformed file";
    return {};
}

const std::string kGoodDict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
const std::string kGoodData = rawBytes(std::vector<double>{1, 2, 3, 4, 5, 6});

class NpyRoundTrip : public ::testing::TestWithParam<Dims> {};

TEST_P(NpyRoundTrip, Float32KeepsShapeAndEveryBit) {
    TempDir dir;
    const auto t = sequenceTensor<float>(GetParam());
    writeNpy(dir.file("a.npy"), t);
    const NpyArray arr = readNpy(dir.file("a.npy"));
    EXPECT_EQ(arr.dtype, NpyDtype::Float32);
    EXPECT_EQ(arr.shape, t.shape);
    EXPECT_EQ(readNpyTensor<float>(dir.file("a.npy"), GetParam()), t);
}

TEST_P(NpyRoundTrip, Float64KeepsShapeAndEveryBit) {
    TempDir dir;
    const auto t = sequenceTensor<double>(GetParam());
    writeNpy(dir.file("a.npy"), t);
    const NpyArray arr = readNpy(dir.file("a.npy"));
    EXPECT_EQ(arr.dtype, NpyDtype::Float64);
    EXPECT_EQ(arr.shape, t.shape);
    EXPECT_EQ(arr.values, t.data);
    EXPECT_EQ(readNpyTensor<double>(dir.file("a.npy"), GetParam()), t);
}

TEST_P(NpyRoundTrip, DataStartsAtAMultipleOf64Bytes) {
    const std::string bytes = npyBytes(sequenceTensor<float>(GetParam()));
    const std::size_t headerLen =
        std::size_t(std::uint8_t(bytes[8])) | (std::size_t(std::uint8_t(bytes[9])) << 8);
    EXPECT_EQ((10 + headerLen) % 64, 0u);
    EXPECT_EQ(bytes[10 + headerLen - 1], '\n');
}

INSTANTIATE_TEST_SUITE_P(Shapes, NpyRoundTrip,
                         ::testing::Values(Dims{}, Dims{1}, Dims{7}, Dims{3, 4}, Dims{2, 3, 4},
                                           Dims{2, 1, 3, 5}, Dims{0}, Dims{2, 0, 3}, Dims{0, 0, 0, 0}),
                         [](const auto& info) {
                             // Appends only: gcc 12 warns falsely (-Wrestrict) on "d" + std::string.
                             std::string name(1, 'd');
                             name.append(std::to_string(info.param.size()));
                             for (auto d : info.param)
                                 name.append("_").append(std::to_string(d));
                             return name;
                         });

TEST(NpyReader, ReadsFilesLaidOutByNumpy) {
    const NpyArray arr = parseNpy(npyFile(kGoodDict, kGoodData), "numpy.npy");
    EXPECT_EQ(arr.dtype, NpyDtype::Float64);
    EXPECT_EQ(arr.shape, (Dims{2, 3}));
    EXPECT_EQ(arr.values, (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

TEST(NpyReader, ReadsFormatVersionsTwoAndThree) {
    for (int major : {2, 3}) {
        const NpyArray arr = parseNpy(npyFile(kGoodDict, kGoodData, major), "v.npy");
        EXPECT_EQ(arr.shape, (Dims{2, 3})) << "version " << major;
        EXPECT_EQ(arr.values[5], 6.0);
    }
}

TEST(NpyReader, AcceptsKeysInAnyOrderOneDimensionalTuplesAndDoubleQuotes) {
    const auto floats = rawBytes(std::vector<float>{0.5f, -2.0f, 3.25f});
    const NpyArray a =
        parseNpy(npyFile("{'shape': (3,), 'fortran_order': False, 'descr': '<f4'}", floats), "a.npy");
    EXPECT_EQ(a.dtype, NpyDtype::Float32);
    EXPECT_EQ(a.shape, (Dims{3}));
    EXPECT_EQ(a.values, (std::vector<double>{0.5, -2.0, 3.25}));
    const NpyArray b =
        parseNpy(npyFile("{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (3,)}", floats), "b.npy");
    EXPECT_EQ(b.shape, (Dims{3}));
}

TEST(NpyReader, RejectsAWrongMagicString) {
    std::string bytes = npyFile(kGoodDict, kGoodData);
    bytes[1] = 'X';
    const std::string msg = parseError(bytes, "weights/w.npy");
    EXPECT_THAT(msg, HasSubstr("weights/w.npy"));
    EXPECT_THAT(msg, HasSubstr("not a .npy file"));
    EXPECT_THAT(parseError("PK\x03\x04 a zip file, not an array"), HasSubstr("magic"));
    EXPECT_THAT(parseError(""), HasSubstr("magic"));
}

TEST(NpyReader, RejectsATruncatedHeader) {
    const std::string bytes = npyFile(kGoodDict, kGoodData);
    const std::string msg = parseError(bytes.substr(0, 40));
    EXPECT_THAT(msg, HasSubstr("bad.npy"));
    EXPECT_THAT(msg, HasSubstr("truncated"));
    EXPECT_THAT(msg, HasSubstr("header of 118 bytes"));
    EXPECT_THAT(parseError(npyFile(kGoodDict, kGoodData, 2).substr(0, 11)), HasSubstr("truncated"));
}

TEST(NpyReader, RejectsTruncatedData) {
    const std::string bytes = npyFile(kGoodDict, kGoodData);
    const std::string msg = parseError(bytes.substr(0, bytes.size() - 3));
    EXPECT_THAT(msg, HasSubstr("bad.npy"));
    EXPECT_THAT(msg, HasSubstr("truncated: shape [2, 3] needs 48 data bytes, found 45"));
}

TEST(NpyReader, RejectsTrailingBytes) {
    const std::string msg = parseError(npyFile(kGoodDict, kGoodData + "xyz"));
    EXPECT_THAT(msg, HasSubstr("bad.npy"));
    EXPECT_THAT(msg, HasSubstr("3 bytes after the data of shape [2, 3]"));
}

TEST(NpyReader, RejectsFortranOrder) {
    const std::string msg =
        parseError(npyFile("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", kGoodData));
    EXPECT_THAT(msg, HasSubstr("bad.npy"));
    EXPECT_THAT(msg, HasSubstr("Fortran-order"));
    EXPECT_THAT(msg, HasSubstr("expected C order"));
}

TEST(NpyReader, RejectsUnsupportedDtypesNamingWhatIsExpected) {
    for (std::string dtype : {"<i4", ">f8", "|b1", "<f2", "<c16", ">f4"}) {
        SCOPED_TRACE(dtype);
        const std::string msg = parseError(
            npyFile("{'descr': '" + dtype + "', 'fortran_order': False, 'shape': (2, 3), }", kGoodData));
        EXPECT_THAT(msg, HasSubstr("bad.npy"));
        EXPECT_THAT(msg, HasSubstr("unsupported dtype '" + dtype + "'"));
        EXPECT_THAT(msg, HasSubstr("'<f4'"));
        EXPECT_THAT(msg, HasSubstr("'<f8'"));
    }
}

TEST(NpyReader, RejectsUnknownFormatVersions) {
    for (int major : {0, 4, 200}) {
        std::string bytes = npyFile(kGoodDict, kGoodData);
        bytes[6] = char(major);
        const std::string msg = parseError(bytes);
        EXPECT_THAT(msg, HasSubstr("bad.npy"));
        EXPECT_THAT(msg, HasSubstr("unsupported .npy format version " + std::to_string(major)));
        EXPECT_THAT(msg, HasSubstr("expected 1, 2 or 3"));
    }
}

TEST(NpyReader, RejectsMalformedHeaderDictionaries) {
    EXPECT_THAT(parseError(npyFile("{'fortran_order': False, 'shape': (2, 3), }", kGoodData)),
                HasSubstr("no 'descr' entry"));
    EXPECT_THAT(parseError(npyFile("{'descr': '<f8', 'shape': (2, 3), }", kGoodData)),
                HasSubstr("no 'fortran_order' entry"));
    EXPECT_THAT(parseError(npyFile("{'descr': '<f8', 'fortran_order': False, }", kGoodData)),
                HasSubstr("no 'shape' entry"));
    EXPECT_THAT(parseError(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': [2, 3], }", kGoodData)),
                HasSubstr("shape must be a tuple"));
    EXPECT_THAT(
        parseError(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (2, -3), }", kGoodData)),
        HasSubstr("non-integer"));
    EXPECT_THAT(parseError(npyFile("{'descr': '<f8', 'fortran_order': maybe, 'shape': (2, 3), }", kGoodData)),
                HasSubstr("fortran_order must be True or False"));
}

TEST(NpyReader, RejectsArraysTooLargeToIndex) {
    const std::string msg =
        parseError(npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (65536, 65536), }", ""));
    EXPECT_THAT(msg, HasSubstr("too large"));
    EXPECT_THAT(parseError(npyFile(
                    "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", "")),
                HasSubstr("too large"));
}

TEST(NpyReader, NamesAMissingFile) {
    TempDir dir;
    try {
        (void)readNpy(dir.file("missing.npy"));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Io);
        EXPECT_THAT(e.what(), HasSubstr(dir.file("missing.npy")));
        EXPECT_THAT(e.what(), HasSubstr("No such file or directory"));
    }
}

TEST(NpyReader, NamesTheFileWhenReadingFromDisk) {
    TempDir dir;
    writeBytes(dir.file("trunc.npy"), npyFile(kGoodDict, kGoodData).substr(0, 100));
    try {
        (void)readNpy(dir.file("trunc.npy"));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_THAT(e.what(), HasSubstr(dir.file("trunc.npy") + ": truncated"));
    }
}

TEST(NpyTensor, ChecksTheShapeNamingFileExpectedAndFound) {
    TempDir dir;
    writeNpy(dir.file("w.npy"), sequenceTensor<float>({4, 3}));
    try {
        (void)readNpyTensor<float>(dir.file("w.npy"), {4, 5});
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
        EXPECT_THAT(e.what(), HasSubstr(dir.file("w.npy")));
        EXPECT_THAT(e.what(), HasSubstr("expected shape [4, 5], found [4, 3]"));
    }
    // Wrong rank, and wildcards shown as '*'.
    try {
        (void)readNpyTensor<double>(dir.file("w.npy"), {-1, 3, -1});
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_THAT(e.what(), HasSubstr("expected shape [*, 3, *], found [4, 3]"));
    }
}

TEST(NpyTensor, WildcardDimensionsMatchAnySize) {
    TempDir dir;
    const auto t = sequenceTensor<double>({4, 3});
    writeNpy(dir.file("w.npy"), t);
    EXPECT_EQ(readNpyTensor<double>(dir.file("w.npy"), {-1, 3}), t);
    EXPECT_EQ(readNpyTensor<double>(dir.file("w.npy"), {-1, -1}), t);
}

TEST(NpyTensor, ConvertsBetweenFloatAndDouble) {
    TempDir dir;
    const auto d = sequenceTensor<double>({5});
    writeNpy(dir.file("d.npy"), d);
    EXPECT_EQ(readNpyTensor<float>(dir.file("d.npy"), {5}), d.cast<float>());
    const auto f = sequenceTensor<float>({5});
    writeNpy(dir.file("f.npy"), f);
    EXPECT_EQ(readNpyTensor<double>(dir.file("f.npy"), {5}), f.cast<double>());
}

TEST(NpyWriter, FailsWithAnIoErrorNamingThePathAndLeavesNothing) {
    TempDir dir;
    const std::string path = dir.file("no/such/folder/x.npy");
    try {
        writeNpy(path, sequenceTensor<float>({2}));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Io);
        EXPECT_THAT(e.what(), HasSubstr(path));
    }
}

TEST(NpyWriter, ReplacesAnExistingFileWhole) {
    TempDir dir;
    writeNpy(dir.file("x.npy"), sequenceTensor<double>({100}));
    writeNpy(dir.file("x.npy"), sequenceTensor<float>({2}));
    EXPECT_EQ(readNpyTensor<float>(dir.file("x.npy"), {2}), sequenceTensor<float>({2}));
    EXPECT_EQ(std::distance(fs::directory_iterator(fs::path(dir.file(""))), fs::directory_iterator()), 1);
}

} // namespace
} // namespace rnnprof

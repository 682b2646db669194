// The bounded reader every input goes through (engine/file_read.h): what is not a regular file is
// refused before anything is read (a FIFO would block forever, /dev/zero never ends), and so is a
// file over the reader's cap; every message names the path and why. The .npy reader checks the
// size its header implies against the file before reading the data.
#include "engine/error.h"
#include "engine/file_read.h"
#include "engine/npy.h"
#include "support/temp_dir.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>
#include <string>

namespace rnnprof {
namespace {

using ::testing::HasSubstr;

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// The message and kind of what `read` throws.
template <class F>
Error errorOf(F read) {
    try {
        read();
    } catch (const Error& e) {
        return e;
    }
    ADD_FAILURE() << "no error";
    return Error(ErrorKind::Io, "");
}

TEST(RegularFile, AFifoIsRefusedAtOnceInsteadOfWaitingForAWriter) {
    test::TempDir dir;
    const std::string fifo = dir.path("pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const Error e = errorOf([&] { (void)readRegularFile(fifo, kMaxConfigFileBytes); });
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    EXPECT_THAT(e.what(),
                HasSubstr("cannot read " + fifo + ": it is a FIFO (named pipe), not a regular file"));
}

TEST(RegularFile, AnEndlessDeviceAndAFolderAreRefusedNamingWhatTheyAre) {
    EXPECT_THAT(errorOf([] { (void)readRegularFile("/dev/zero", kMaxResultFileBytes); }).what(),
                HasSubstr("/dev/zero: it is a character device"));
    test::TempDir dir;
    EXPECT_THAT(errorOf([&] { (void)readRegularFile(dir.path(), kMaxResultFileBytes); }).what(),
                HasSubstr("it is a directory"));
}

TEST(RegularFile, AFileOverTheCapIsRefusedWithBothSizesAndOneAtTheCapIsReadWhole) {
    test::TempDir dir;
    const std::string path = dir.path("plan.json");
    writeBytes(path, std::string(1000, 'x'));
    const Error e = errorOf([&] { (void)readRegularFile(path, 999); });
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    EXPECT_THAT(e.what(), HasSubstr("its 1000 bytes are more than this reader accepts (999 bytes)"));
    EXPECT_EQ(readRegularFile(path, 1000), std::string(1000, 'x'));
}

TEST(RegularFile, AMissingFileIsAnIoErrorWithTheSystemsReason) {
    const Error e = errorOf([] { (void)readRegularFile("/nonexistent/plan.json", kMaxConfigFileBytes); });
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_THAT(e.what(), HasSubstr("cannot read /nonexistent/plan.json: No such file or directory"));
}

// A header that promises 24 float64 values followed by 1 MiB: refused as having bytes after the
// data (its size is checked against the header before the data is read), and a file shorter than
// its header says is refused as truncated.
TEST(NpyFile, TheFilesSizeMustBeWhatItsHeaderSays) {
    Tensor<double> t({4, 2, 3});
    for (std::size_t i = 0; i < t.data.size(); ++i)
        t.data[i] = double(i);
    const std::string exact = npyBytes(t);
    test::TempDir dir;
    writeBytes(dir.path("exact.npy"), exact);
    EXPECT_EQ(readNpy(dir.path("exact.npy")).values, t.data);
    writeBytes(dir.path("long.npy"), exact + std::string(1 << 20, '\0'));
    EXPECT_THAT(errorOf([&] { (void)readNpy(dir.path("long.npy")); }).what(),
                HasSubstr("has 1048576 bytes after the data of shape [4, 2, 3]"));
    writeBytes(dir.path("short.npy"), exact.substr(0, exact.size() - 8));
    EXPECT_THAT(errorOf([&] { (void)readNpy(dir.path("short.npy")); }).what(),
                HasSubstr("truncated: shape [4, 2, 3] needs 192 data bytes, found 184"));
    writeBytes(dir.path("header.npy"), exact.substr(0, 40));
    EXPECT_THAT(errorOf([&] { (void)readNpy(dir.path("header.npy")); }).what(),
                HasSubstr("truncated: header"));
}

TEST(NpyFile, ALargeArrayIsReadInChunksToTheSameValues) {
    Tensor<float> t({3, 100'000}); // more than one chunk of 2^17 elements
    for (std::size_t i = 0; i < t.data.size(); ++i)
        t.data[i] = float(i % 977) * 0.5f;
    test::TempDir dir;
    writeNpy(dir.path("big.npy"), t);
    const NpyArray arr = readNpy(dir.path("big.npy"));
    ASSERT_EQ(arr.values.size(), t.data.size());
    for (std::size_t i = 0; i < t.data.size(); ++i)
        ASSERT_EQ(arr.values[i], double(t.data[i])) << i;
}

// FileChars hands a parser the file a chunk at a time: the bytes through its iterators are the
// file's, in order, across chunk boundaries; start() shows the first chunk without consuming it and
// rest() reads what is left at once.
TEST(FileChars, IteratesOverEveryByteAcrossChunksInOrder) {
    test::TempDir dir;
    const std::string path = dir.path("big");
    std::string bytes(FileChars::kChunkBytes * 2 + 12345, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = char('a' + (i * 7919) % 26);
    writeBytes(path, bytes);
    RegularFile file(path, kMaxResultFileBytes);
    FileChars chars(file);
    EXPECT_EQ(chars.start(), std::string_view(bytes).substr(0, FileChars::kChunkBytes));
    const std::string read(chars.begin(), chars.end());
    EXPECT_EQ(read.size(), bytes.size());
    EXPECT_TRUE(read == bytes);
    EXPECT_TRUE(chars.begin() == chars.end());
}

TEST(FileChars, RestReadsWhatIsLeftAfterTheBytesConsumed) {
    test::TempDir dir;
    const std::string path = dir.path("f");
    const std::string bytes = std::string(FileChars::kChunkBytes + 10, 'x') + "tail";
    writeBytes(path, bytes);
    RegularFile file(path, kMaxResultFileBytes);
    FileChars chars(file);
    auto it = chars.begin();
    for (int i = 0; i < 3; ++i)
        ++it;
    EXPECT_TRUE(chars.rest() == bytes.substr(3));
    EXPECT_TRUE(chars.begin() == chars.end());
}

TEST(FileChars, AnEmptyFileIsAnEmptyRange) {
    test::TempDir dir;
    writeBytes(dir.path("empty"), "");
    RegularFile file(dir.path("empty"), kMaxResultFileBytes);
    FileChars chars(file);
    EXPECT_TRUE(chars.start().empty());
    EXPECT_TRUE(chars.begin() == chars.end());
}

// Lines are split at every '\n' wherever the chunks end, a line longer than a chunk whole; the
// last line says whether a '\n' ended it.
TEST(FileChars, GivesLinesAcrossChunksAndSaysWhetherTheLastWasEnded) {
    test::TempDir dir;
    const std::string longLine(FileChars::kChunkBytes + 100, 'L');
    const std::vector<std::string> lines{"first", "", longLine, std::string(FileChars::kChunkBytes - 7, 's'),
                                         "last"};
    for (const bool endedLast : {true, false}) {
        std::string bytes;
        for (const std::string& line : lines)
            bytes += line + "\n";
        if (!endedLast) bytes.pop_back();
        const std::string path = dir.path(endedLast ? "ended" : "torn");
        writeBytes(path, bytes);
        RegularFile file(path, kMaxResultFileBytes);
        FileChars chars(file);
        std::vector<std::string> read;
        std::string line;
        bool terminated = false;
        std::vector<bool> ends;
        while (chars.nextLine(line, terminated)) {
            read.push_back(line);
            ends.push_back(terminated);
        }
        EXPECT_TRUE(read == lines) << "ended: " << endedLast;
        EXPECT_EQ(ends, (std::vector<bool>{true, true, true, true, endedLast}));
        EXPECT_FALSE(chars.nextLine(line, terminated));
        EXPECT_TRUE(line.empty());
    }
}

} // namespace
} // namespace rnnprof

// A file written piece by piece (a results file of 100k points is never held whole) is the
// concatenation of its pieces, replaces its target only when complete, and a producer that fails
// halfway leaves the target as it was and nothing beside it.
#include "engine/atomic_file.h"
#include "engine/error.h"
#include "support/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace rnnprof {
namespace {

using test::slurp;
using test::TempDir;

std::size_t filesIn(const std::string& folder) {
    return std::size_t(std::distance(std::filesystem::directory_iterator(folder), {}));
}

TEST(AtomicFilePieces, TheFileIsThePiecesInOrderWhateverTheirSizes) {
    TempDir dir;
    const std::string path = dir.path("out.json");
    const std::string big(3 * 1024 * 1024 + 17, 'x'); // larger than a write block
    std::string expected;
    writeFileAtomically(path, [&](const ByteSink& out) {
        for (int i = 0; i < 1000; ++i) {
            const std::string piece = "piece " + std::to_string(i) + "\n";
            out(piece);
            expected += piece;
            if (i == 500) {
                out(big);
                expected += big;
            }
        }
        out("");
    });
    EXPECT_EQ(slurp(path), expected);
    EXPECT_EQ(filesIn(dir.path()), 1u);
}

TEST(AtomicFilePieces, AProducerThatFailsLeavesTheTargetAsItWasAndNothingBesideIt) {
    TempDir dir;
    const std::string path = dir.path("out.json");
    writeFileAtomically(path, std::string_view("the old file\n"));
    EXPECT_THROW(writeFileAtomically(path,
                                     [&](const ByteSink& out) {
                                         out(std::string(2 * 1024 * 1024, 'y')); // already on disk
                                         throw std::runtime_error("the producer failed");
                                     }),
                 std::runtime_error);
    EXPECT_EQ(slurp(path), "the old file\n");
    EXPECT_EQ(filesIn(dir.path()), 1u) << "the temporary file is removed";
}

TEST(AtomicFilePieces, AnUnwritableFolderIsAnIoErrorNamingThePath) {
    TempDir dir;
    const std::string path = dir.path("missing/out.json");
    try {
        writeFileAtomically(path, [](const ByteSink& out) { out("text"); });
        FAIL() << "written into a folder that does not exist";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Io);
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
}

} // namespace
} // namespace rnnprof

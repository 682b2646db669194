#pragma once
// Test helpers for files: a temporary folder removed with everything in it, and reading a file whole.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rnnprof::test {

// A fresh folder under the system temporary directory, removed with everything in it.
class TempDir {
public:
    TempDir() {
        static int counter = 0;
        m_path = std::filesystem::temp_directory_path() /
                 ("rnnprof-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        std::filesystem::create_directories(m_path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    // The folder itself, or `name` inside it.
    [[nodiscard]] std::string path(const std::string& name = "") const {
        return name.empty() ? m_path.string() : (m_path / name).string();
    }
    // `name` inside the folder (the same as path(name)).
    [[nodiscard]] std::string file(const std::string& name) const { return path(name); }

private:
    std::filesystem::path m_path;
};

inline std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace rnnprof::test

#include "gui/commands/loaded_results.h"

#include "cli/path_arguments.h"
#include "profiling/files/result_files.h"

#include <QFileInfo>

namespace rnnprof::cli {

int LoadedResults::load(const QString& file) {
    const QString path = QFileInfo(file).absoluteFilePath();
    if (const auto i = paths.indexOf(path); i >= 0) return static_cast<int>(i);
    results.push_back(loadResultFile(pathFromArgument(file)));
    paths << path;
    return static_cast<int>(results.size()) - 1;
}

} // namespace rnnprof::cli

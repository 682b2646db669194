#pragma once
// Splits CSV text (RFC 4180: quoted fields, doubled quotes, newlines inside quotes) into rows of
// fields. The results table shows exactly what the CSV export writes by parsing toCsv()'s output.
#include <QString>
#include <QStringList>

#include <vector>

namespace rnnprof::gui {

[[nodiscard]] std::vector<QStringList> parseCsv(const QString& text);

} // namespace rnnprof::gui

#pragma once
// Puts validation messages where they belong: each editor of the configuration panel is registered
// under the field names the engine uses in FieldIssue ("hidden_size", "batch", "min_repeats", ...);
// show() writes each message in a label right below its editor (and in its tooltip) and returns the
// issues no editor claims, for the panel's general message area.
#include "engine/config.h"

#include <QString>
#include <QStringList>

#include <map>
#include <vector>

QT_BEGIN_NAMESPACE
class QFormLayout;
class QLabel;
class QWidget;
QT_END_NAMESPACE

namespace rnnprof::gui {

class FieldMarks {
public:
    // Adds `editor` as a row of `form` with a (hidden) message label under it.
    void addRow(QFormLayout* form, const QString& label, QWidget* editor, const QStringList& fields);
    [[nodiscard]] std::vector<FieldIssue> show(const std::vector<FieldIssue>& issues);
    [[nodiscard]] QString messageFor(const QString& field) const;
    [[nodiscard]] QWidget* editorFor(const QString& field) const;

private:
    struct Entry {
        QWidget* editor = nullptr;
        QLabel* message = nullptr;
        QString baseToolTip;
    };
    std::vector<Entry> m_entries;
    std::map<QString, std::size_t> m_byField;
};

} // namespace rnnprof::gui

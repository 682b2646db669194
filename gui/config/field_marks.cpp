#include "gui/config/field_marks.h"

#include "gui/charts/chart_theme.h"

#include <QFormLayout>
#include <QLabel>

namespace rnnprof::gui {

void FieldMarks::addRow(QFormLayout* form, const QString& label, QWidget* editor, const QStringList& fields) {
    auto* message = new QLabel(form->parentWidget());
    message->setWordWrap(true);
    message->setObjectName(QStringLiteral("issue-") + fields.value(0));
    message->hide();
    form->addRow(label, editor);
    form->addRow(message);
    m_entries.push_back({editor, message, editor->toolTip()});
    for (const QString& f : fields)
        m_byField[f] = m_entries.size() - 1;
}

std::vector<FieldIssue> FieldMarks::show(const std::vector<FieldIssue>& issues) {
    std::vector<QStringList> messages(m_entries.size());
    std::vector<FieldIssue> unclaimed;
    for (const FieldIssue& issue : issues) {
        const auto it = m_byField.find(QString::fromStdString(issue.field));
        if (it == m_byField.end()) {
            unclaimed.push_back(issue);
            continue;
        }
        const QString text = QString::fromStdString(issue.message);
        if (!messages[it->second].contains(text)) messages[it->second] << text;
    }
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        Entry& e = m_entries[i];
        const QString text = messages[i].join(QLatin1Char('\n'));
        if (text == e.message->text() && e.message->isHidden() == text.isEmpty()) continue;
        e.message->setText(text);
        e.message->setVisible(!text.isEmpty());
        const bool dark = isDarkPalette(e.message->palette());
        e.message->setStyleSheet(dark ? QStringLiteral("color: #ff8080") : QStringLiteral("color: #c62828"));
        e.editor->setToolTip(text.isEmpty() ? e.baseToolTip : text);
    }
    return unclaimed;
}

QString FieldMarks::messageFor(const QString& field) const {
    const auto it = m_byField.find(field);
    if (it == m_byField.end()) return {};
    const Entry& e = m_entries[it->second];
    return e.message->isHidden() ? QString() : e.message->text();
}

QWidget* FieldMarks::editorFor(const QString& field) const {
    const auto it = m_byField.find(field);
    return it == m_byField.end() ? nullptr : m_entries[it->second].editor;
}

} // namespace rnnprof::gui

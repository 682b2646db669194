#pragma once
// An editable list of positive integers (batch sizes, sequence lengths): a line edit in the one
// list grammar of profiling/int_list.h ("1, 4, 16", "1-8", "1..256"), plus a menu of quick ranges
// and a dialog for a custom powers-of-two or stepped range.
#include "profiling/int_list.h"

#include <QWidget>

#include <utility>
#include <vector>

QT_BEGIN_NAMESPACE
class QLineEdit;
class QToolButton;
QT_END_NAMESPACE

namespace rnnprof::gui {

class IntListEdit : public QWidget {
    Q_OBJECT
public:
    using QuickRange = std::pair<QString, std::vector<int>>;
    // `max`: the largest value the field allows (e.g. Limits::maxBatch).
    IntListEdit(int max, std::vector<QuickRange> quickRanges, QWidget* parent = nullptr);
    ~IntListEdit() override;

    [[nodiscard]] IntListParse parsed() const;
    void setValues(const std::vector<int>& values);
    [[nodiscard]] QLineEdit* lineEdit() const { return m_edit; }

signals:
    void edited();

private:
    void askForRange();

    int m_max = 1;
    QLineEdit* m_edit = nullptr;
    QToolButton* m_button = nullptr;
};

} // namespace rnnprof::gui

#include "gui/config/int_list_edit.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMenu>
#include <QSpinBox>
#include <QToolButton>

namespace rnnprof::gui {

IntListEdit::IntListEdit(int max, std::vector<QuickRange> quickRanges, QWidget* parent)
    : QWidget(parent), m_max(max) {
    m_edit = new QLineEdit(this);
    m_edit->setToolTip(QStringLiteral("Values separated by commas or spaces (1, 4, 16), each from 1 to %1.\n"
                                      "FROM-TO gives every value: 3-5 = 3, 4, 5.\n"
                                      "FROM..TO gives the powers of two from FROM, and TO itself:\n"
                                      "1..256 = 1, 2, 4, ..., 256; 1..20 = 1, 2, 4, 8, 16, 20.\n"
                                      "The command line and config files read the same text.")
                           .arg(max));
    m_button = new QToolButton(this);
    m_button->setText(QStringLiteral("…"));
    m_button->setToolTip(QStringLiteral("Quick ranges"));
    m_button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_button);
    for (auto& [label, values] : quickRanges) {
        const std::vector<int> copy = values;
        menu->addAction(label, this, [this, copy] {
            setValues(copy);
            emit edited();
        });
    }
    menu->addSeparator();
    menu->addAction(QStringLiteral("Custom range…"), this, &IntListEdit::askForRange);
    m_button->setMenu(menu);
    connect(m_edit, &QLineEdit::textEdited, this, &IntListEdit::edited);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_button);
    setFocusProxy(m_edit);
}

IntListEdit::~IntListEdit() = default;

IntListParse IntListEdit::parsed() const {
    return parseIntList(m_edit->text().toStdString(), m_max);
}

void IntListEdit::setValues(const std::vector<int>& values) {
    m_edit->setText(QString::fromStdString(formatIntList(values)));
}

void IntListEdit::askForRange() {
    QDialog dialog(this);
    dialog.setWindowTitle(QStringLiteral("Range"));
    auto* from = new QSpinBox(&dialog);
    auto* to = new QSpinBox(&dialog);
    auto* step = new QSpinBox(&dialog);
    auto* kind = new QComboBox(&dialog);
    for (QSpinBox* s : {from, to, step})
        s->setRange(1, m_max);
    from->setValue(1);
    to->setValue(256);
    step->setValue(1);
    kind->addItems({QStringLiteral("powers of two"), QStringLiteral("every STEP")});
    step->setEnabled(false);
    connect(kind, &QComboBox::currentIndexChanged, step, [step](int i) { step->setEnabled(i == 1); });
    auto* form = new QFormLayout(&dialog);
    form->addRow(QStringLiteral("From"), from);
    form->addRow(QStringLiteral("To"), to);
    form->addRow(QStringLiteral("Values"), kind);
    form->addRow(QStringLiteral("Step"), step);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) return;
    const auto values = kind->currentIndex() == 0 ? powersOfTwo(from->value(), to->value())
                                                  : linearRange(from->value(), to->value(), step->value());
    if (values.empty()) return;
    setValues(values);
    emit edited();
}

} // namespace rnnprof::gui

#include "gui/config/backend_list.h"

#include "gui/charts/chart_theme.h"
#include "profiling/result.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace rnnprof::gui {
namespace {

QString colorFor(BackendStatus s, bool dark) {
    switch (s) {
    case BackendStatus::Available:
        return dark ? QStringLiteral("#7bd88f") : QStringLiteral("#2e7d32");
    case BackendStatus::PartlyEligible:
    case BackendStatus::Ineligible:
        return dark ? QStringLiteral("#ffb74d") : QStringLiteral("#b26a00");
    case BackendStatus::Unavailable:
        return dark ? QStringLiteral("#9e9e9e") : QStringLiteral("#757575");
    }
    return {};
}

} // namespace

BackendList::BackendList(const BackendRegistry& registry, QWidget* parent) : QWidget(parent) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setVerticalSpacing(2);
    grid->setColumnStretch(1, 1);
    int r = 0;
    for (const Backend* backend : registry.all()) {
        Row row;
        row.backend = backend;
        row.availability = backend->availability(); // probes the machine once
        row.toggle =
            new QCheckBox(QString::fromUtf8(backend->id().data(), qsizetype(backend->id().size())), this);
        row.toggle->setObjectName(QStringLiteral("backend-") + row.toggle->text());
        row.label = new QLabel(this);
        row.label->setWordWrap(true);
        row.label->setObjectName(QStringLiteral("backendState-") + row.toggle->text());
        row.label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        grid->addWidget(row.toggle, r, 0, Qt::AlignTop);
        grid->addWidget(row.label, r, 1);
        ++r;
        connect(row.toggle, &QCheckBox::toggled, this, &BackendList::selectionChanged);
        m_rows.push_back(std::move(row));
    }
    m_fastPath = new QLabel(this);
    m_fastPath->setObjectName(QStringLiteral("frameworkFastPath"));
    m_fastPath->setWordWrap(true);
    m_fastPath->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fastPath->setToolTip(
        QStringLiteral("Would the frameworks run this model on cuDNN? Keras (layers.LSTM/GRU) only chooses "
                       "its cuDNN kernel for tanh, sigmoid, no recurrent dropout, bias and (GRU) "
                       "reset_after; PyTorch (nn.LSTM/GRU) runs cuDNN for everything it can express."));
    grid->addWidget(m_fastPath, r, 0, 1, 2);
    setContext(RnnConfig{}, {Mode::Inference});
}

BackendList::~BackendList() = default;

QString BackendList::idAt(int row) const {
    return m_rows[std::size_t(row)].toggle->text();
}

void BackendList::setContext(const RnnConfig& config, const std::vector<Mode>& modes) {
    for (Row& row : m_rows) {
        row.state = backendState(row.availability, *row.backend, config, modes);
        showState(row);
    }
    showFastPath(config);
}

void BackendList::showFastPath(const RnnConfig& config) {
    m_fastPathLines.clear();
    QString html = QStringLiteral("Frameworks on cuDNN:");
    for (const std::string& line : rnnprof::fastPathLines(fastPathTexts(config))) {
        m_fastPathLines << QString::fromStdString(line);
        html += QStringLiteral("<br>") + m_fastPathLines.back().toHtmlEscaped();
    }
    m_fastPath->setText(html);
}

void BackendList::showState(Row& row) {
    const bool dark = isDarkPalette(palette());
    const QString color = colorFor(row.state.status, dark);
    row.label->setText(
        QStringLiteral("<span style=\"color:%1\">●</span> %2").arg(color, row.state.summary.toHtmlEscaped()));
    const QString description =
        QString::fromUtf8(row.backend->description().data(), qsizetype(row.backend->description().size()));
    const QString tip =
        description + (row.state.reasons.isEmpty()
                           ? QString()
                           : QStringLiteral("\n\n") + row.state.reasons.join(QLatin1Char('\n')));
    row.toggle->setToolTip(tip);
    row.label->setToolTip(tip);
    const bool usable = row.state.status != BackendStatus::Unavailable;
    if (!usable && row.toggle->isChecked()) row.toggle->setChecked(false);
    row.toggle->setEnabled(usable);
}

std::vector<std::string> BackendList::selected() const {
    std::vector<std::string> out;
    for (const Row& row : m_rows)
        if (row.toggle->isChecked()) out.emplace_back(row.backend->id());
    return out;
}

QStringList BackendList::setSelected(const std::vector<std::string>& ids) {
    QStringList skipped;
    for (const auto& id : ids) {
        bool found = false;
        for (const Row& row : m_rows)
            found = found || (row.backend->id() == id && row.toggle->isEnabled());
        if (!found) skipped << QString::fromStdString(id);
    }
    {
        for (Row& row : m_rows) {
            const QSignalBlocker block(row.toggle);
            const bool want = std::find(ids.begin(), ids.end(), std::string(row.backend->id())) != ids.end();
            row.toggle->setChecked(want && row.toggle->isEnabled());
        }
    }
    emit selectionChanged();
    return skipped;
}

} // namespace rnnprof::gui

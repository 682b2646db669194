#include "gui/charts/chart_page.h"

#include "gui/breakdown_drill.h"
#include "gui/charts/chart_filter.h"
#include "gui/charts/chart_view.h"
#include "gui/models/chart_breakdown.h"
#include "gui/models/result_store.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QVBoxLayout>

namespace rnnprof::gui {
namespace {

QString selectorLabel(Selector s) {
    switch (s) {
    case Selector::SeqLen:
        return QStringLiteral("Sequence length");
    case Selector::Batch:
        return QStringLiteral("Batch size");
    case Selector::Baseline:
        return QStringLiteral("Baseline");
    case Selector::Challenger:
        return QStringLiteral("Challenger");
    case Selector::Backend:
        return QStringLiteral("Backend");
    case Selector::Mode:
        return QStringLiteral("Mode");
    case Selector::PhaseScale:
        return QStringLiteral("Phase bars");
    }
    return {};
}

void setItems(QComboBox* box, const QStringList& items, const QString& current) {
    QStringList now;
    for (int i = 0; i < box->count(); ++i)
        now << box->itemText(i);
    if (now != items) {
        box->clear();
        box->addItems(items);
    }
    const int index = static_cast<int>(items.indexOf(current));
    if (index >= 0) box->setCurrentIndex(index);
}

// Small enough for two charts side by side, or stacked above the table, on a 1024x640 screen.
constexpr QSize kChartMinimum(200, 120);
// Lines of notes shown under a chart before they scroll.
constexpr int kNoteLines = 4;

QStringList numbers(const std::vector<int>& values) {
    QStringList out;
    for (int v : values)
        out << QString::number(v);
    return out;
}

} // namespace

ChartPage::ChartPage(const ChartPageSpec& spec, const ResultStore& store, QWidget* parent)
    : QWidget(parent), m_spec(spec), m_store(store) {
    setObjectName(QStringLiteral("chartPage-") + spec.id);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    if (!spec.selectors.empty()) {
        auto* bar = new QHBoxLayout;
        for (Selector s : spec.selectors) {
            auto* label = new QLabel(selectorLabel(s) + QLatin1Char(':'), this);
            auto* box = new QComboBox(this);
            box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
            label->setBuddy(box);
            bar->addWidget(label);
            bar->addWidget(box);
            bar->addSpacing(12);
            m_selectors[s] = box;
            connect(box, &QComboBox::currentIndexChanged, this, [this] {
                readSelectors();
                refresh();
            });
        }
        bar->addStretch(1);
        layout->addLayout(bar);
    }
    // A page following the selection puts its charts side by side above the drill-down, so that
    // on a small screen each chart keeps some height.
    auto* splitter =
        new QSplitter(spec.sideBySide || spec.followsSelection ? Qt::Horizontal : Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    for (const ChartSpec& chart : spec.charts) {
        auto* box = new QWidget(splitter);
        auto* boxLayout = new QVBoxLayout(box);
        boxLayout->setContentsMargins(0, 0, 0, 0);
        boxLayout->setSpacing(2);
        auto* view = new ChartView(box);
        view->setObjectName(QStringLiteral("chart-") + chart.id);
        view->setMinimumSize(kChartMinimum); // the window must fit a 1024x640 screen
        connect(view, &ChartView::pointClicked, this, &ChartPage::pointClicked);
        auto* notes = new QLabel(box);
        notes->setObjectName(QStringLiteral("notes-") + chart.id);
        notes->setWordWrap(true);
        notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
        notes->setContentsMargins(8, 0, 8, 2);
        // Notes can run long (every file a prediction was fitted on): at most a few lines below
        // the chart, the rest scrolls, so that the chart keeps its height on a laptop screen.
        auto* noteArea = new QScrollArea(box);
        noteArea->setFrameShape(QFrame::NoFrame);
        noteArea->setWidgetResizable(true);
        noteArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        noteArea->setWidget(notes);
        noteArea->setMaximumHeight(notes->fontMetrics().lineSpacing() * kNoteLines + 4);
        boxLayout->addWidget(view, 1);
        boxLayout->addWidget(noteArea);
        m_views.push_back(view);
        m_notes.push_back(notes);
        m_noteAreas.push_back(noteArea);
    }
    // The first chart is the page's main one: give it most of the room (side by side above the
    // drill-down too: QtCharts cuts category labels wider than about a third of a chart).
    splitter->setStretchFactor(0, spec.followsSelection ? 5 : 3);
    for (int i = 1; i < splitter->count(); ++i)
        splitter->setStretchFactor(i, spec.followsSelection ? 4 : 2);
    if (spec.followsSelection) {
        auto* outer = new QSplitter(Qt::Vertical, this);
        outer->setChildrenCollapsible(false);
        outer->addWidget(splitter);
        m_drill = new BreakdownDrill(outer);
        m_drill->setMinimumHeight(80);
        outer->addWidget(m_drill);
        outer->setStretchFactor(0, 2);
        outer->setStretchFactor(1, 1);
        layout->addWidget(outer, 1);
    } else {
        layout->addWidget(splitter, 1);
    }
    refresh();
}

ChartPage::~ChartPage() = default;

QComboBox* ChartPage::selector(Selector kind) const {
    const auto it = m_selectors.find(kind);
    return it == m_selectors.end() ? nullptr : it->second;
}

void ChartPage::fillSelectors(const ChartOptions& options) {
    for (auto& [kind, box] : m_selectors) {
        const QSignalBlocker block(box);
        switch (kind) {
        case Selector::SeqLen:
            setItems(box, numbers(options.seqLens), QString::number(m_selection.seqLen));
            break;
        case Selector::Batch:
            setItems(box, numbers(options.batches), QString::number(m_selection.batch));
            break;
        case Selector::Baseline:
        case Selector::Challenger: {
            // The pairs across every open result: "cpu-onednn @ laptop.json (laptop)".
            QStringList labels;
            for (const PairSideChoice& c : options.sides)
                labels << c.label;
            const int index = sideIndex(m_selection, options, kind == Selector::Challenger);
            setItems(box, labels, labels.value(index));
            break;
        }
        case Selector::Backend:
            setItems(box, options.backends, m_selection.backend);
            break;
        case Selector::Mode: {
            QStringList modes;
            for (Mode m : options.modes)
                modes << QString::fromUtf8(toString(m).data());
            setItems(box, modes, QString::fromUtf8(toString(m_selection.mode).data()));
            break;
        }
        case Selector::PhaseScale: {
            QStringList scales;
            for (PhaseScale scale : kPhaseScales)
                scales << phaseScaleLabel(scale);
            setItems(box, scales, phaseScaleLabel(m_selection.phaseScale));
            break;
        }
        }
    }
}

void ChartPage::readSelectors() {
    for (auto& [kind, box] : m_selectors) {
        const QString text = box->currentText();
        switch (kind) {
        case Selector::SeqLen:
            m_selection.seqLen = text.toInt();
            break;
        case Selector::Batch:
            m_selection.batch = text.toInt();
            break;
        case Selector::Baseline:
        case Selector::Challenger: {
            const int index = box->currentIndex();
            if (index < 0 || index >= static_cast<int>(m_sides.size())) break;
            const PairSideChoice& c = m_sides[static_cast<std::size_t>(index)];
            if (kind == Selector::Challenger) {
                m_selection.challenger = c.backend;
                m_selection.challengerResult = c.result;
            } else {
                m_selection.baseline = c.backend;
                m_selection.baselineResult = c.result;
            }
            break;
        }
        case Selector::Backend:
            m_selection.backend = text;
            break;
        case Selector::Mode:
            m_selection.mode = parseMode(text.toStdString()).value_or(Mode::Inference);
            break;
        case Selector::PhaseScale:
            for (PhaseScale scale : kPhaseScales)
                if (phaseScaleLabel(scale) == text) m_selection.phaseScale = scale;
            break;
        }
    }
}

void ChartPage::refresh() {
    const auto& results = m_store.results();
    const ChartOptions options = chartOptions(results);
    fitSelection(m_selection, options);
    m_sides = options.sides;
    fillSelectors(options);
    const auto shown = m_shown ? m_shown() : std::nullopt;
    for (std::size_t i = 0; i < m_views.size(); ++i) {
        ChartData data = m_spec.charts[i].build(results, m_selection);
        if (shown) keepShownPoints(data, *shown);
        const QString notes = data.notes.join(QLatin1Char('\n'));
        m_notes[i]->setText(notes);
        m_noteAreas[i]->setVisible(!notes.isEmpty());
        m_views[i]->setChartData(std::move(data));
    }
    if (m_drill) m_drill->setPoint(results, breakdownPoint(results, m_selection));
}

QString ChartPage::notesText(std::size_t index) const {
    return index < m_notes.size() ? m_notes[index]->text() : QString();
}

void ChartPage::setPair(const QString& baseline, int baselineResult, const QString& challenger,
                        int challengerResult) {
    m_selection.baseline = baseline;
    m_selection.baselineResult = baselineResult;
    m_selection.challenger = challenger;
    m_selection.challengerResult = challengerResult;
    refresh();
}

void ChartPage::setSelectedPoint(const PointRef& ref) {
    for (ChartView* view : m_views)
        view->setHighlightedPoint(ref);
    if (m_selection.selected == ref) return;
    m_selection.selected = ref;
    if (m_spec.followsSelection) refresh();
}

void ChartPage::setShownPoints(ShownPoints shown) {
    m_shown = std::move(shown);
    refresh();
}

} // namespace rnnprof::gui

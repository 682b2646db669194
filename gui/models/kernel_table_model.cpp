#include "gui/models/kernel_table_model.h"

#include "gui/models/chart_data.h"

namespace rnnprof::gui {
namespace {

// Kernel names come from files: a tooltip shows them whole up to this length.
constexpr int kMaxTooltipChars = 2000;

} // namespace

KernelTableModel::KernelTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelTableModel::setKernels(std::vector<KernelStat> kernels) {
    beginResetModel();
    m_kernels = std::move(kernels);
    endResetModel();
}

int KernelTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_kernels.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const KernelStat& k = m_kernels[std::size_t(index.row())];
    const QString name = QString::fromStdString(k.name);
    const QString phase = QString::fromUtf8(toString(k.phase).data());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Name:
            return name;
        case Phase:
            return phase;
        case Calls:
            return k.count;
        case Total:
            return formatMs(k.totalUs / 1000.0);
        case Mean:
            return formatMs(k.meanUs / 1000.0);
        case Share:
            return QStringLiteral("%1 %").arg(k.share * 100.0, 0, 'f', 1);
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case Name:
            return name;
        case Phase:
            return static_cast<int>(k.phase);
        case Calls:
            return k.count;
        case Total:
            return k.totalUs;
        case Mean:
            return k.meanUs;
        case Share:
            return k.share;
        }
        return {};
    case Qt::ToolTipRole:
        return QString(elideMiddle(name, kMaxTooltipChars) +
                       QStringLiteral("\n%1 launches per iteration, %2 in total, mean %3 (min %4, max %5)")
                           .arg(k.count)
                           .arg(formatMs(k.totalUs / 1000.0), formatMs(k.meanUs / 1000.0),
                                formatMs(k.minUs / 1000.0), formatMs(k.maxUs / 1000.0)));
    case Qt::TextAlignmentRole:
        return index.column() >= Calls ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                       : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name:
        return QStringLiteral("kernel");
    case Phase:
        return QStringLiteral("phase");
    case Calls:
        return QStringLiteral("calls / iteration");
    case Total:
        return QStringLiteral("total / iteration");
    case Mean:
        return QStringLiteral("mean");
    case Share:
        return QStringLiteral("share of kernel time");
    }
    return {};
}

} // namespace rnnprof::gui

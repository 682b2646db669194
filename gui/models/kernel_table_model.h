#pragma once
// The GPU kernels of one traced point as a table (name, phase, launches, total, mean, share per
// iteration), read from PointResult::gpu->kernels as they are: the numbers are CUPTI's, this model
// only formats them. Sort through a QSortFilterProxyModel on SortRole (the values themselves).
#include "profiling/result.h"

#include <QAbstractTableModel>

#include <vector>

namespace rnnprof::gui {

class KernelTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Phase, Calls, Total, Mean, Share, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit KernelTableModel(QObject* parent = nullptr);

    void setKernels(std::vector<KernelStat> kernels);
    [[nodiscard]] const std::vector<KernelStat>& kernels() const { return m_kernels; }

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role = Qt::DisplayRole) const override;

private:
    std::vector<KernelStat> m_kernels;
};

} // namespace rnnprof::gui

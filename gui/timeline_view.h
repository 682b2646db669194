#pragma once
// A small time line of one traced iteration: a lane per track (timelineLanes(), the host's engine
// thread first, then each CUDA stream), time running left to right, a box per phase, sub-step,
// kernel or copy; hovering a box names it with its start and duration. Shows where the GPU waits
// for the host; it draws what it is given and measures nothing.
#include "gui/models/gpu_timeline.h"

#include <QWidget>

namespace rnnprof::gui {

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setTrace(const std::vector<TraceSlice>& trace);
    [[nodiscard]] const std::vector<TimelineLane>& lanes() const { return m_lanes; }
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    [[nodiscard]] QRectF plotRect() const;
    [[nodiscard]] QRectF boxOf(int lane, const TraceSlice& slice) const;

    std::vector<TimelineLane> m_lanes;
    double m_endUs = 0.0;
};

} // namespace rnnprof::gui

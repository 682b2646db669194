#pragma once
// Small helpers of the developer tools: an application on the offscreen platform when there is no
// display, waiting for a window to be exposed, and running the event loop until a signal.
#include <QApplication>
#include <QEventLoop>
#include <QTimer>

#include <memory>

namespace rnnprof::tools {

[[nodiscard]] std::unique_ptr<QApplication> makeToolApplication(int& argc, char** argv);
// Processes events until `window` is exposed or `timeoutMs` passed; true when exposed.
bool waitExposed(QWidget& window, int timeoutMs = 5000);
void processFor(int ms);

// Runs an event loop until `sender` emits `signal` or `timeoutMs` pass; true when it emitted.
template <class Sender, class Signal>
bool waitFor(Sender* sender, Signal signal, int timeoutMs) {
    QEventLoop loop;
    bool fired = false;
    auto c = QObject::connect(sender, signal, &loop, [&] {
        fired = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(c);
    return fired;
}

} // namespace rnnprof::tools

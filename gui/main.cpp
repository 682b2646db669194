#include "gui/app_entry.h"

int main(int argc, char** argv) {
    return rnnprof::gui::runRnnprof(argc, argv);
}

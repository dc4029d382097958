#pragma once

namespace kp::ui {

// Gives a GUI process started without XDG_RUNTIME_DIR (as root, in a container, over ssh) a private
// runtime directory before QApplication exists, so that Qt does not warn on every start that it picked
// one itself. Does nothing when the variable is set, or when the directory cannot be made private to
// this user (then Qt's own fallback and its warning stand).
void ensureRuntimeDirectory();

} // namespace kp::ui

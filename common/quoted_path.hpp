#pragma once
// How a file name (or any user-given text) appears in a message: in single quotes, with control
// characters escaped, so that a name holding ANSI escape sequences or newlines cannot restyle,
// move or forge lines on the user's terminal. Every message that names a path goes through here.
#include <string>

namespace clviz {

// 'name' with \n, \r, \t, \\ and \xNN for other control bytes (C0, DEL, the C1 controls U+0080..
// U+009F) and for bytes that are not valid UTF-8. Printable UTF-8 passes unchanged.
std::string quotedPath(const std::string& path);

}  // namespace clviz

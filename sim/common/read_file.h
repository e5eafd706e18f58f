#pragma once
#include <string>

namespace ptosim {

// The whole of a text input (config, program). Throws InputError
// "path: cannot open <what> file" when it is missing, unreadable or a directory.
std::string read_input_file(const std::string& path, const std::string& what);

}  // namespace ptosim

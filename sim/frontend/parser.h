#pragma once
#include <string>

#include "sim/frontend/ast.h"

namespace ptosim::frontend {

// Parses a whole program. Throws ProgramError on a syntax or indentation error.
Module parse_program(const std::string& text);

}  // namespace ptosim::frontend

#pragma once
#include <vector>

#include "sim/frontend/token.h"

namespace ptosim::frontend {

// Splits the whole program into tokens, with Python's INDENT/DEDENT/NEWLINE
// structure. Newlines inside (), [] are not tokens (implicit continuation).
std::vector<Token> tokenize(const std::string& text);

}  // namespace ptosim::frontend

#pragma once
// Reports come back in from files (compare, sweep results) that a user, a
// script or another pto-sim may have edited: each value is checked against
// the key list's type before anything reads it, so a malformed report is bad
// input naming its key, never a JSON type error deep inside a command.
#include <nlohmann/json.hpp>
#include <string>

namespace ptosim {

// Throws InputError "file: levels[1].name: is 7, expected a string" for the
// first value whose JSON type differs from report_keys()' entry. Keys not in
// the list (a newer pto-sim's) and the contents of identity objects
// (parameters, config_resolved) are not checked; a real value may be null
// (how JSON writes NaN).
void check_report_types(const nlohmann::json& report, const std::string& file);

}  // namespace ptosim

#pragma once
#include <string>

#include <yaml-cpp/yaml.h>

#include "sim/config/hw_config.h"

namespace ptosim {

// Parses YAML text into a fully defaulted, validated config. `file` names the
// source in error messages. Throws InputError("file:line: key: message").
HwConfig parse_config(const std::string& yaml_text, const std::string& file);
HwConfig load_config_file(const std::string& path);
// The same from an already parsed document (config overrides edit the tree
// so that untouched keys keep their file positions in error messages).
HwConfig parse_config_node(const YAML::Node& root, const std::string& file);
// The first YAML document of `text`; InputError at the position of a
// syntax error, a stray token yaml-cpp would loop on, or a second document.
YAML::Node first_document(const std::string& text, const std::string& file);
// The config compiled into the binary: the same text as configs/default.yaml.
HwConfig default_config();
const std::string& default_config_text();

// YAML with every default filled in; parse_config(to_yaml(c)) == c.
std::string to_yaml(const HwConfig& config);

}  // namespace ptosim

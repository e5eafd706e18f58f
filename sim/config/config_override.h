#pragma once
// `--set dotted.path=value`: edits a config's YAML tree before it is parsed,
// so an override is validated exactly like the same value written in the
// file. Sweeps vary configs this way without writing a file per point.
#include <string>
#include <vector>

#include "sim/config/hw_config.h"

namespace ptosim {

struct ConfigOverride {
  std::string spec;   // as given: "caches.L1.size=16KiB"
  std::string path;   // "caches.L1.size"
  std::string value;  // "16KiB"
};

// Splits "a.b.c=value"; throws InputError("--set SPEC: ...") when malformed.
ConfigOverride parse_override(const std::string& spec);

// The config at `path` ("" = the built-in default) with `overrides` applied
// in order. A list entry is addressed by its `name:` (caches also by their
// default name L<n>) or by index: caches.L2.ways, memories.shared.banks,
// caches.0.size. Errors in an overridden value name the --set that gave it.
HwConfig load_config_with_overrides(const std::string& path, const std::vector<ConfigOverride>& overrides);

}  // namespace ptosim

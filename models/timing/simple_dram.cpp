// SimpleDram is header-only; this file keeps one translation unit per model
// so that the registry's list and the build's list read alike.
#include "models/timing/simple_dram.h"

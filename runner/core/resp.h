#pragma once
// RESP encoding of one command: an array of bulk strings, appended to `out`. Used by the
// replay engine and by the measuring connection's pipelines.

#include <string>
#include <vector>

void appendRespCommand(const std::vector<std::string> &args, std::string &out);

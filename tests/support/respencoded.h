#pragma once
// A command in RESP, written out independently of the encoder under test.

#include <string>
#include <vector>

namespace TestResp {

inline std::string encoded(const std::vector<std::string> &args)
{
    std::string out = "*" + std::to_string(args.size()) + "\r\n";
    for (const std::string &arg : args)
        out += "$" + std::to_string(arg.size()) + "\r\n" + arg + "\r\n";
    return out;
}

} // namespace TestResp

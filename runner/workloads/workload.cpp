#include "workload.h"

#include "resp.h"

void appendResp(const WorkloadCommand &command, std::string &out)
{
    appendRespCommand(command.args, out);
}
